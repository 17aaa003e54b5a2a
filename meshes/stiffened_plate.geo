// Cantilevered plate strip with a beam stiffener along its centre line: L along x, B along y, in the XY plane.
// Two structured quad patches share the centre line, so the stiffener's 2-node line cells sit on plate nodes.
// Physical groups: Surface "plate" (shells); Curve "stiffener" (beams, when stiffener = 1); Curve "root"
// (the clamped edge x = 0) and Curve "tip" (the loaded edge x = L), which have no section: node sets, and the
// edge cells of a line load; Point "tip_centre" (a probe).
//   gmsh -2 meshes/stiffened_plate.geo -format msh41 -o plate.msh                    (stiffened)
//   gmsh -2 meshes/stiffened_plate.geo -setnumber stiffener 0 -o strip.msh           (plain strip)
//   -setnumber nx 40 -setnumber ny 4 (elements along x and across each half), L, B
If (!Exists(L))
  L = 1.0;
EndIf
If (!Exists(B))
  B = 0.05;
EndIf
If (!Exists(nx))
  nx = 40;
EndIf
If (!Exists(ny))
  ny = 2;
EndIf
If (!Exists(stiffener))
  stiffener = 1;
EndIf

Point(1) = {0, 0, 0};
Point(2) = {L, 0, 0};
Point(3) = {L, B / 2, 0};
Point(4) = {0, B / 2, 0};
Point(5) = {L, B, 0};
Point(6) = {0, B, 0};
Line(1) = {1, 2}; // y = 0
Line(2) = {2, 3}; // tip, lower half
Line(3) = {4, 3}; // centre line (stiffener)
Line(4) = {1, 4}; // root, lower half
Line(5) = {3, 5}; // tip, upper half
Line(6) = {6, 5}; // y = B
Line(7) = {4, 6}; // root, upper half
Curve Loop(1) = {1, 2, -3, -4};
Curve Loop(2) = {3, 5, -6, -7};
Plane Surface(1) = {1};
Plane Surface(2) = {2};
Transfinite Curve{1, 3, 6} = nx + 1;
Transfinite Curve{2, 4, 5, 7} = ny + 1;
Transfinite Surface{1, 2};
Recombine Surface{1, 2};

Physical Surface("plate") = {1, 2};
If (stiffener)
  Physical Curve("stiffener") = {3};
EndIf
Physical Curve("root") = {4, 7};
Physical Curve("tip") = {2, 5};
Physical Point("tip_centre") = {3};
