"""Write small Gmsh MSH 4.1 ASCII meshes of line cells and point groups for tests."""


def write_msh41(path, nodes, curves, points):
    """nodes: [(x, y, z)] (tags 1..N); curves: {group: [(a, b), ...]} line cells by 1-based node tags;
    points: {group: [node tags]} point groups. Each curve group is one curve entity, each point of a point
    group one point entity."""
    phys, pents, cents = [], [], []
    for k, name in enumerate(curves):
        phys.append(f'1 {k + 1} "{name}"')
        cents.append((k + 1, k + 1, curves[name]))
    pt = 0
    for k, name in enumerate(points):
        tag = len(curves) + k + 1
        phys.append(f'0 {tag} "{name}"')
        for n in points[name]:
            pt += 1
            pents.append((pt, tag, n))
    lo = [min(p[c] for p in nodes) for c in range(3)]
    hi = [max(p[c] for p in nodes) for c in range(3)]
    L = ["$MeshFormat", "4.1 0 8", "$EndMeshFormat", "$PhysicalNames", str(len(phys))] + phys + ["$EndPhysicalNames"]
    L += ["$Entities", f"{len(pents)} {len(cents)} 0 0"]
    L += [f"{t} {' '.join(map(repr, nodes[n - 1]))} 1 {p}" for t, p, n in pents]
    L += [f"{t} {' '.join(map(repr, lo))} {' '.join(map(repr, hi))} 1 {p} 0" for t, p, _ in cents]
    L += ["$EndEntities", "$Nodes", f"1 {len(nodes)} 1 {len(nodes)}", f"1 1 0 {len(nodes)}"]
    L += [str(i + 1) for i in range(len(nodes))] + [" ".join(map(repr, p)) for p in nodes] + ["$EndNodes"]
    ne = sum(len(c) for _, _, c in cents) + len(pents)
    L += ["$Elements", f"{len(cents) + len(pents)} {ne} 1 {ne}"]
    e = 0
    for t, _, cells in cents:
        L.append(f"1 {t} 1 {len(cells)}")
        for a, b in cells:
            e += 1
            L.append(f"{e} {a} {b}")
    for t, _, n in pents:
        e += 1
        L += [f"0 {t} 15 1", f"{e} {n}"]
    L.append("$EndElements")
    open(path, "w").write("\n".join(L) + "\n")
    return path
