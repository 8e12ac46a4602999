ideal_dcg_1=2         	q0	5.1232
ideal_dcg_1=2         	q1	3.2619
ideal_dcg_1=2         	all	4.1925
