/// S6.3, S7.6: the drawing order of the layers of one shared 3D space,
/// with layers that cross each other cut along the line where they meet,
/// as Core Animation does ("Core Animation will cut a layer's rendered
/// image properly to match expectations for that geometry"). A sort of
/// whole layers by the depth of their centres draws one of two crossing
/// cards wholly over the other.
///
/// A binary space partition (BSP tree) of the layers' quads: each layer's
/// plane splits the layers that cross it, and the two sides are drawn far
/// side first, as seen by the viewer. The quads are in projected space
/// (x/w, y/w, z/w): a perspective map keeps planes planar and lines
/// straight, so a cut made there is the cut in 3D, and the viewer looks
/// down -z (larger z is nearer). The pieces of a cut layer come back with
/// the planes that bound them; the layer is drawn once per piece, clipped
/// to its side of each.
enum DepthSort {
    /// The points p with n·p + d >= 0.
    struct HalfSpace: Equatable {
        var n: SIMD3<Double>
        var d: Double

        func distance(_ p: SIMD3<Double>) -> Double { (n * p).sum() + d }
        var flipped: HalfSpace { HalfSpace(n: -n, d: -d) }
    }

    /// One layer (or piece of one) to draw, in order.
    struct Piece: Equatable {
        /// Its index in the quads given.
        let index: Int
        /// The half-spaces it is cut to; empty for a whole layer.
        let clips: [HalfSpace]
    }

    private struct Polygon {
        var points: [SIMD3<Double>]
        let index: Int
        var clips: [HalfSpace]
    }

    /// The drawing order of `quads` (each a layer's corners in projected
    /// space, given far to near as far as their centres tell; nil for a
    /// layer that cannot be cut: part of it behind the eye). With any nil,
    /// or fewer than two, the order given, uncut.
    static func pieces(_ quads: [[SIMD3<Double>]?]) -> [Piece] {
        var polygons: [Polygon] = []
        for (i, q) in quads.enumerated() {
            guard let q else { return quads.indices.map { Piece(index: $0, clips: []) } }
            polygons.append(Polygon(points: q, index: i, clips: []))
        }
        if polygons.count < 2 { return polygons.map { Piece(index: $0.index, clips: []) } }
        var out: [Piece] = []
        out.reserveCapacity(polygons.count)
        // Cuts can multiply the pieces (each cut adds one); past this many a
        // crossing layer goes whole to the side of its centre.
        var cuts = 2 * polygons.count + 256
        emit(polygons, into: &out, depth: 0, cuts: &cuts)
        return out
    }

    /// The plane of a polygon (Newell's normal through its centroid), nil
    /// when it has no area.
    static func plane(of points: [SIMD3<Double>]) -> HalfSpace? {
        var n = SIMD3<Double>(0, 0, 0), c = SIMD3<Double>(0, 0, 0)
        for i in points.indices {
            let p = points[i], q = points[(i + 1) % points.count]
            n.x += (p.y - q.y) * (p.z + q.z)
            n.y += (p.z - q.z) * (p.x + q.x)
            n.z += (p.x - q.x) * (p.y + q.y)
            c += p
        }
        let length = (n * n).sum().squareRoot()
        guard length > 1e-12, length.isFinite else { return nil }
        n /= length
        c /= Double(points.count)
        return HalfSpace(n: n, d: -(n * c).sum())
    }

    /// Deep enough for any scene; past it the rest keeps the order given
    /// (and the recursion stays shallow whatever the number of layers).
    private static let maxDepth = 64

    private static func emit(_ polygons: [Polygon], into out: inout [Piece], depth: Int, cuts: inout Int) {
        guard let first = polygons.first else { return }
        guard depth < maxDepth else {
            for p in polygons { out.append(Piece(index: p.index, clips: p.clips)) }
            return
        }
        guard let plane = plane(of: first.points) else {
            // No area (a layer seen exactly edge-on covers no pixel): in order.
            out.append(Piece(index: first.index, clips: first.clips))
            emit(Array(polygons.dropFirst()), into: &out, depth: depth + 1, cuts: &cuts)
            return
        }
        var front: [Polygon] = [], back: [Polygon] = [], coplanar: [Polygon] = [first]
        for p in polygons.dropFirst() {
            // A tolerance in proportion to the scene's coordinates: layers
            // that only touch (a cube's faces at its edges) are not cut.
            var scale = 1.0
            for q in p.points { scale = max(scale, abs(q.x), abs(q.y), abs(q.z)) }
            let eps = 1e-9 * scale
            var hasFront = false, hasBack = false, sum = 0.0
            for q in p.points {
                let d = plane.distance(q)
                hasFront = hasFront || d > eps
                hasBack = hasBack || d < -eps
                sum += d
            }
            switch (hasFront, hasBack) {
            case (false, false): coplanar.append(p)
            case (true, false): front.append(p)
            case (false, true): back.append(p)
            case (true, true) where cuts > 0:
                cuts -= 1
                let (f, b) = split(p.points, p.points.map { plane.distance($0) })
                front.append(Polygon(points: f, index: p.index, clips: p.clips + [plane]))
                back.append(Polygon(points: b, index: p.index, clips: p.clips + [plane.flipped]))
            case (true, true):
                if sum >= 0 { front.append(p) } else { back.append(p) }
            }
        }
        // Layers in one plane keep the order given (by their centres'
        // depths, then sibling order).
        coplanar.sort { $0.index < $1.index }
        // The viewer is far along +z: on the front side when n.z > 0.
        let viewerInFront = plane.n.z >= 0
        emit(viewerInFront ? back : front, into: &out, depth: depth + 1, cuts: &cuts)
        for p in coplanar { out.append(Piece(index: p.index, clips: p.clips)) }
        emit(viewerInFront ? front : back, into: &out, depth: depth + 1, cuts: &cuts)
    }

    /// A convex polygon cut by a plane (its points' signed distances given):
    /// the front part and the back part.
    private static func split(_ points: [SIMD3<Double>], _ distances: [Double])
        -> (front: [SIMD3<Double>], back: [SIMD3<Double>]) {
        var front: [SIMD3<Double>] = [], back: [SIMD3<Double>] = []
        for i in points.indices {
            let j = (i + 1) % points.count
            let p = points[i], dp = distances[i], dq = distances[j]
            if dp >= 0 { front.append(p) }
            if dp <= 0 { back.append(p) }
            if (dp > 0 && dq < 0) || (dp < 0 && dq > 0) {
                let t = dp / (dp - dq)
                let x = p + (points[j] - p) * t
                front.append(x)
                back.append(x)
            }
        }
        return (front, back)
    }
}
