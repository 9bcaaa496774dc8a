"""Training-transit simulation: a closed form, and a discrete-event model of shared links (FIFO recurrences,
checked against a SimPy event simulation of the same model).

The model turns the experiment's measured steps and bytes into time and energy to reach a loss when
training runs across data centres. Every module here is pure (no file I/O).
"""
