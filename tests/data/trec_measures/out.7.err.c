yaap                  	q0	-1.0986
yaap                  	q1	-0.6931
yaap                  	q2	-1.6094
gm_bpref              	all	0.0000
yaap                  	all	-1.1337
