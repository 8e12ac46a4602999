ideal_dcg_1=2         	q0	7.2760
ideal_dcg_1=2         	q1	3.2619
ideal_dcg_1=2         	all	5.2689
