"""Learned evaluations: the model and its weights file (model.py: the
reference forward pass), and the trainer of `claimsolve train` (train.py),
fitted with numpy to the positions of a selfplay study
(claimsolve.study.selfplay).  docs/learning.md tells the whole."""
