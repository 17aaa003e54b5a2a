Point(1) = {0,0,0,1}; Point(2) = {1,0,0,1}; Line(1) = {1,2}; Transfinite Curve{1} = 4;
Physical Curve("beam") = {1}; Physical Point("root") = {1}; Physical Point("tip") = {2};
