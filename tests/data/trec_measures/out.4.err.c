yaap                  	q0	-1.9042
yaap                  	q1	-1.0986
gm_bpref              	all	0.0011
yaap                  	all	-1.5014
