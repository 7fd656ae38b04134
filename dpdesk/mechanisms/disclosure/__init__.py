"""Disclosure checks for sharing microdata: k-anonymity, l-diversity, t-closeness, risk.

Pure numpy over integer codes (one array per column; negative = missing). The project
layer (``dpdesk.project.sharing.checks``) codes a data frame's columns and applies remedies.

>>> import numpy as np
>>> from dpdesk.mechanisms import disclosure as dc
>>> age, sex = np.array([0, 0, 1, 1, 1]), np.array([0, 0, 1, 1, 0])
>>> classes = dc.equivalence_classes([age, sex])
>>> dc.k_anonymity(classes, k=2).smallest
1
"""

from dpdesk.mechanisms.disclosure.classes import Classes, equivalence_classes
from dpdesk.mechanisms.disclosure.closeness import TCloseness, emd_equal, emd_ordered, t_closeness
from dpdesk.mechanisms.disclosure.diversity import LDiversity, class_value_counts, l_diversity
from dpdesk.mechanisms.disclosure.generalize import (band_edges, bands, bottom_code, merge_rare, top_code,
                                                     truncate_dates)
from dpdesk.mechanisms.disclosure.kanonymity import KAnonymity, check_k, k_anonymity
from dpdesk.mechanisms.disclosure.loss import InformationLoss, entropy_bits

__all__ = [
    "Classes", "equivalence_classes", "KAnonymity", "check_k", "k_anonymity", "LDiversity", "l_diversity",
    "class_value_counts", "TCloseness", "t_closeness", "emd_ordered", "emd_equal", "band_edges", "bands",
    "top_code", "bottom_code", "truncate_dates", "merge_rare", "InformationLoss", "entropy_bits",
]
