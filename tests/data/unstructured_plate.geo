// A plate with an off-centre hole, meshed unstructured (Frontal-Delaunay, simple recombination: quadrangles and
// the triangles left over). Gmsh numbers its nodes in the order the mesher creates them, far from any locality:
// the mesh flexure reorders (src/mesh/order.c). Groups: Surface "plate", Curve "x0" (the edge x = 0).
//   gmsh -2 tests/data/unstructured_plate.geo -format msh41 -o plate.msh   (-setnumber h 0.02: finer)
If (!Exists(h))
  h = 0.04;
EndIf
Point(1) = {0, 0, 0, h};
Point(2) = {1, 0, 0, h};
Point(3) = {1, 0.6, 0, h};
Point(4) = {0, 0.6, 0, h};
Point(5) = {0.6, 0.3, 0, h};
Point(6) = {0.72, 0.3, 0, h};
Point(7) = {0.6, 0.42, 0, h};
Point(8) = {0.48, 0.3, 0, h};
Point(9) = {0.6, 0.18, 0, h};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Circle(5) = {6, 5, 7};
Circle(6) = {7, 5, 8};
Circle(7) = {8, 5, 9};
Circle(8) = {9, 5, 6};
Curve Loop(1) = {1, 2, 3, 4};
Curve Loop(2) = {5, 6, 7, 8};
Plane Surface(1) = {1, 2};
Mesh.Algorithm = 6;
Mesh.RecombinationAlgorithm = 0;
Recombine Surface {1};
Physical Surface("plate") = {1};
Physical Curve("x0") = {4};
