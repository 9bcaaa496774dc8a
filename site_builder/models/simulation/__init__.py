"""Training-transit simulation: a closed form and a SimPy discrete-event engine.

The model turns the experiment's measured steps and bytes into time and energy to reach a loss when
training runs across data centres. Every module here is pure (no file I/O).
"""
