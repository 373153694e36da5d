p aux sp ss 2
s 1
s 9
