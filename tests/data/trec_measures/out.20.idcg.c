ideal_dcg_1=2         	q0	4.2619
ideal_dcg_1=2         	q1	5.1232
ideal_dcg_1=2         	all	4.6925
