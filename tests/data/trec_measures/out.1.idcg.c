ideal_dcg_1=2         	q0	0.0000
ideal_dcg_1=2         	q1	3.0000
ideal_dcg_1=2         	all	1.5000
