// Small stiffened panel for the reader tests (tests/check_mesh_formats.py): a 1 m x 0.5 m plate, quadrangles
// on its first half and triangles on its second, beam stiffeners on four edges. Mesh it once and save it in
// MSH 4.1 and 2.2, ASCII and binary: flexure must read the same mesh from each.
//   gmsh -2 tests/data/reader_panel.geo -format msh41 -o panel.msh
lc = 0.2;
Point(1) = {0, 0, 0, lc};
Point(2) = {0.5, 0, 0, lc};
Point(3) = {1, 0, 0, lc};
Point(4) = {1, 0.5, 0, lc};
Point(5) = {0.5, 0.5, 0, lc};
Point(6) = {0, 0.5, 0, lc};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 5};
Line(5) = {5, 6};
Line(6) = {6, 1};
Line(7) = {2, 5};
Curve Loop(1) = {1, 7, 5, 6};
Plane Surface(1) = {1};
Curve Loop(2) = {2, 3, 4, -7};
Plane Surface(2) = {2};
Recombine Surface{1};
Physical Surface("plate") = {1, 2};
Physical Curve("stiff") = {1, 2, 3, 6}; // beams; a curve's first physical group gives its elements' section
Physical Curve("tip") = {3};            // a second group of curve 3: its nodes (the loaded edge)
Physical Curve("root") = {6};           // a second group of curve 6: its nodes (the clamped edge)
Physical Curve(77) = {2};               // unnamed: group physical_1_77, nodes of curve 2
Physical Point("corner") = {4};
