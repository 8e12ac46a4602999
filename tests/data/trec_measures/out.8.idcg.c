ideal_dcg_1=2         	q0	3.2619
ideal_dcg_1=2         	q1	8.5278
ideal_dcg_1=2         	all	5.8949
