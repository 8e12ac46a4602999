ideal_dcg_1=2         	q0	3.2619
ideal_dcg_1=2         	q1	2.0000
ideal_dcg_1=2         	q2	8.8851
ideal_dcg_1=2         	all	4.7156
