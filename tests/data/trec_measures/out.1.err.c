yaap                  	q0	0.0000
yaap                  	q1	-0.6931
gm_bpref              	all	0.0000
yaap                  	all	-0.3466
