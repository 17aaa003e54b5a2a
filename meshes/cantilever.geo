// Steel cantilever of the default example: 1 m along x, 40 two-node beam elements.
// Regenerate: gmsh -1 meshes/cantilever.geo -format msh41 -o meshes/cantilever.msh
L = 1.0;
N = 40;
Point(1) = {0, 0, 0};
Point(2) = {L, 0, 0};
Line(1) = {1, 2};
Transfinite Curve{1} = N + 1;
Physical Curve("beam") = {1};
Physical Point("root") = {1};
Physical Point("tip") = {2};
