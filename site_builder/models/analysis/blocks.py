"""Per-block FLOP ledgers of one training sequence: forward and backward.

Each block returns a :class:`BlockCost`: what one sequence of length ``s`` costs in the forward and
the backward pass, and what is done once per optimizer step whatever the number of sequences
(filter and weight-block transforms). Forward conventions follow conventions.md A4 and A5; the
backward rules are this analysis's own and are written out in each docstring.
"""

from __future__ import annotations

from dataclasses import field

from site_builder.datatypes import dataclass

from .ops import CADD, CMUL, Ops, bins, padded_length, rfft


@dataclass(frozen=True)
class BlockCost:
    fwd_seq: Ops = field(default_factory=Ops)
    bwd_seq: Ops = field(default_factory=Ops)
    fwd_step: Ops = field(default_factory=Ops)
    bwd_step: Ops = field(default_factory=Ops)

    def __add__(self, o: BlockCost) -> BlockCost:
        return BlockCost(
            self.fwd_seq + o.fwd_seq, self.bwd_seq + o.bwd_seq, self.fwd_step + o.fwd_step, self.bwd_step + o.bwd_step
        )

    def scaled(self, k: int) -> BlockCost:
        """The same block repeated k times (k layers)."""
        return BlockCost(
            self.fwd_seq.scaled(k), self.bwd_seq.scaled(k), self.fwd_step.scaled(k), self.bwd_step.scaled(k)
        )


def dense_matrix(m: int, n: int, s: int) -> BlockCost:
    """An m x n weight on s tokens: forward 2mns; backward dX and dW, each the forward's cost."""
    f = 2 * m * n * s
    return BlockCost(fwd_seq=Ops(dense=f), bwd_seq=Ops(dense=2 * f))


def circulant_matrix(m: int, n: int, s: int, k: int) -> BlockCost:
    """An m x n weight of k x k circulant blocks (CirCNN), on s tokens.

    Forward per token: FFT of the n/k input blocks and inverse FFT of the m/k output blocks; one
    weight-masked product per block pair; block sums over the n/k input blocks (``other``).
    Once per step: the FFT of every block's defining vector.

    Backward per token, dX: FFT of the m/k output-gradient blocks and inverse FFT of the n/k input
    gradient blocks; one product with the conjugate block spectrum per block pair (weight-masked);
    block sums over the m/k output blocks. dW: conj(X)·G per block pair (data-by-data; X's spectrum
    is kept from the forward, G's is the one dX already took), accumulated over the step's tokens in
    the Fourier domain (``other``). Once per step: the inverse FFT of every accumulated block gradient.
    """
    if m % k or n % k:
        raise ValueError(f"matrix {m}x{n} is not a whole number of {k}x{k} blocks")
    p, q, b = m // k, n // k, bins(k)
    per_tok_fwd = Ops(transform=(q + p) * rfft(k), spectral_w=p * q * b * CMUL, other=p * (q - 1) * b * CADD)
    per_tok_bwd = Ops(
        transform=(p + q) * rfft(k),
        spectral_w=p * q * b * CMUL,
        spectral_d=p * q * b * CMUL,
        other=q * (p - 1) * b * CADD + p * q * b * CADD,
    )
    once = Ops(transform=p * q * rfft(k))
    return BlockCost(fwd_seq=per_tok_fwd.scaled(s), bwd_seq=per_tok_bwd.scaled(s), fwd_step=once, bwd_step=once)


def matrices(dims: tuple[tuple[int, int], ...], s: int, circ_block: int) -> BlockCost:
    """Several weights applied to the same s tokens; ``circ_block`` 0 means dense."""
    total = BlockCost()
    for m, n in dims:
        total += circulant_matrix(m, n, s, circ_block) if circ_block else dense_matrix(m, n, s)
    return total


def attention_scores(d: int, s: int) -> BlockCost:
    """Causal QK^T and AV over the full width d, diagonal included: forward 2·d·s·(s+1).

    Backward: each of the two products has two gradient products of the same size, so twice the
    forward (the attention FLOPs of the 6N-plus-attention rule). Softmax is not counted.
    """
    f = 2 * d * s * (s + 1)
    return BlockCost(fwd_seq=Ops(attention=f), bwd_seq=Ops(attention=2 * f))


def short_conv_and_gating(channels: int, taps: int, gated: int, s: int) -> BlockCost:
    """Depthwise short convolution over ``channels`` with ``taps`` taps, and ``gated`` gating multiplies
    per token (digital ``other`` work).

    Forward: 2·taps per channel per token for the convolution, 1 per gating multiply. Backward: the
    convolution's input gradient (a correlation with the taps) and its tap gradient each cost what
    the forward did; a gating multiply a·b has two gradient multiplies (g·b and g·a). So the backward
    is twice the forward, the same rule as a matmul.
    """
    f = s * 2 * taps * channels + s * gated
    return BlockCost(fwd_seq=Ops(other=f), bwd_seq=Ops(other=2 * f))


def long_convolutions(channels: int, length: int) -> BlockCost:
    """``channels`` causal long convolutions of one sequence of length L, by FFT at n = pow2 >= 2L.

    Forward per channel: FFT of U, product with the filter spectrum H (weight-masked), inverse FFT.
    Once per step per channel: the filter's FFT (the spectrum is then cached for every sequence).

    Backward per channel: FFT of the output gradient G and inverse FFT for dU; G·conj(H) (weight-masked);
    G·conj(U) (data-by-data; U's spectrum kept from the forward); dH accumulated over the step's
    sequences in the Fourier domain, one complex add per bin (``other``). Once per step per channel:
    the inverse FFT of the accumulated dH.
    """
    n = padded_length(length)
    b = bins(n)
    fwd = Ops(transform=2 * rfft(n), spectral_w=b * CMUL)
    bwd = Ops(transform=2 * rfft(n), spectral_w=b * CMUL, spectral_d=b * CMUL, other=b * CADD)
    once = Ops(transform=rfft(n))
    return BlockCost(
        fwd_seq=fwd.scaled(channels),
        bwd_seq=bwd.scaled(channels),
        fwd_step=once.scaled(channels),
        bwd_step=once.scaled(channels),
    )
