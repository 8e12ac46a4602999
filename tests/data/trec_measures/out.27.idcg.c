ideal_dcg_1=2         	q0	4.2619
ideal_dcg_1=2         	q1	8.9069
ideal_dcg_1=2         	q2	3.0000
ideal_dcg_1=2         	q3	6.7541
ideal_dcg_1=2         	all	5.7307
