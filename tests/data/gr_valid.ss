c sources
p aux sp ss 3
s 1
s 5
s 3
