yaap                  	q0	-1.0986
yaap                  	q1	-1.7918
gm_bpref              	all	0.0000
yaap                  	all	-1.4452
