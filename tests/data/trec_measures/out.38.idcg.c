ideal_dcg_1=2         	q0	4.2619
ideal_dcg_1=2         	q1	4.2619
ideal_dcg_1=2         	q2	4.2619
ideal_dcg_1=2         	q3	4.2619
ideal_dcg_1=2         	all	4.2619
