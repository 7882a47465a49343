import Glibc

/// Random numbers as a pure function of a key and a counter (a
/// counter-based generator: the SplitMix64 finaliser over key + n * golden
/// ratio). A particle's attributes are draws 0, 1, 2, ... under its own key,
/// so the same particle gets the same attributes however often and in
/// whatever order it is computed.
struct ParticleRandom {
    let key: UInt64

    @inline(__always) static func mix(_ z0: UInt64) -> UInt64 {
        var z = z0
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A key for a child of `parent` numbered `n` (cell index, birth index).
    @inline(__always) static func key(_ parent: UInt64, _ n: UInt64) -> UInt64 {
        mix(parent &+ (n &+ 1) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// Draw n, uniform in [0, 1).
    @inline(__always) func uniform(_ n: UInt64) -> Double {
        Double(ParticleRandom.mix(key &+ (n &+ 1) &* 0x9E37_79B9_7F4A_7C15) >> 11) * 0x1p-53
    }

    /// Core Animation's mean-and-range rule: uniform in [m - r/2, m + r/2].
    @inline(__always) func around(_ m: Double, _ r: Double, _ n: UInt64) -> Double {
        m + (uniform(n) - 0.5) * r
    }
}

/// A point of the emission shape and the shape's own direction there.
struct EmissionPoint {
    var x: Double, y: Double, z: Double
    /// Unit vector; (1, 0, 0) where the shape has no outward direction.
    var nx = 1.0, ny = 0.0, nz = 0.0
}

/// Where particles are born on the emitter shape (S7.4). The shape is
/// centred on (emitterPosition, emitterZPosition); a line runs along x over
/// emitterSize.width; rectangles span emitterSize; cuboids add emitterDepth
/// along z; circles (in the xy plane) and spheres have radius
/// emitterSize.width (Apple's kCAEmitterLayerCircle: "a circle centered at
/// (emitterPosition.x, emitterPosition.y, emitterZPosition) of radius
/// emitterSize.width"; kCAEmitterLayerSphere the same). Modes: `points`
/// uses the shape's vertices (a line's two ends, the corners; the centre
/// of a point, circle or sphere), `outline` its edges (a circle's
/// circumference, a sphere's surface), `surface` its faces (a rectangle's
/// and circle's area, a cuboid's six faces, a sphere's surface) and
/// `volume` its inside (a line or rectangle or circle, having no inside, as
/// for surface; a cuboid's and a ball's inside). On a circle's or sphere's outline and surface, particles head
/// outward from the centre before the cell's longitude and latitude turn
/// them; everywhere else the emission direction starts along +x.
enum EmitterGeometry {
    /// Draws 0...2 of `random`.
    static func point(_ c: EmitterConfiguration, _ random: ParticleRandom) -> EmissionPoint {
        let cx = c.emitterPosition.x, cy = c.emitterPosition.y, cz = c.emitterZPosition
        let w = c.emitterSize.width, h = c.emitterSize.height, d = c.emitterDepth
        let u1 = random.uniform(0), u2 = random.uniform(1), u3 = random.uniform(2)
        switch (c.emitterShape, c.emitterMode) {
        case (.point, _):
            return EmissionPoint(x: cx, y: cy, z: cz)
        case (.line, .points):
            return EmissionPoint(x: cx + (u1 < 0.5 ? -w / 2 : w / 2), y: cy, z: cz)
        case (.line, _):
            return EmissionPoint(x: cx + (u1 - 0.5) * w, y: cy, z: cz)
        case (.rectangle, .points):
            let corner = min(3, Int(u1 * 4))
            return EmissionPoint(x: cx + (corner & 1 == 0 ? -w : w) / 2, y: cy + (corner & 2 == 0 ? -h : h) / 2, z: cz)
        case (.rectangle, .outline):
            let (x, y) = rectanglePerimeter(w, h, u1)
            return EmissionPoint(x: cx + x, y: cy + y, z: cz)
        case (.rectangle, _):
            return EmissionPoint(x: cx + (u1 - 0.5) * w, y: cy + (u2 - 0.5) * h, z: cz)
        case (.cuboid, .points):
            let corner = min(7, Int(u1 * 8))
            return EmissionPoint(x: cx + (corner & 1 == 0 ? -w : w) / 2, y: cy + (corner & 2 == 0 ? -h : h) / 2,
                                 z: cz + (corner & 4 == 0 ? -d : d) / 2)
        case (.cuboid, .outline):
            // 12 edges, 4 along each axis, chosen in proportion to length.
            let total = 4 * (w + h + d)
            guard total > 0 else { return EmissionPoint(x: cx, y: cy, z: cz) }
            var s = u1 * total
            let corner = min(3, Int(u2 * 4))
            let a = corner & 1 == 0 ? -0.5 : 0.5, b = corner & 2 == 0 ? -0.5 : 0.5
            if s < 4 * w { s = s / 4 - w / 2; return EmissionPoint(x: cx + s, y: cy + a * h, z: cz + b * d) }
            s -= 4 * w
            if s < 4 * h { s = s / 4 - h / 2; return EmissionPoint(x: cx + a * w, y: cy + s, z: cz + b * d) }
            s -= 4 * h
            s = min(d, s / 4) - d / 2
            return EmissionPoint(x: cx + a * w, y: cy + b * h, z: cz + s)
        case (.cuboid, .surface):
            // 6 faces, two per axis, chosen in proportion to area.
            let xy = w * h, yz = h * d, xz = w * d
            let total = 2 * (xy + yz + xz)
            guard total > 0 else { return EmissionPoint(x: cx, y: cy, z: cz) }
            var s = u1 * total
            // Within each pair, the first half of the band is the near face.
            if s < 2 * xy {
                return EmissionPoint(x: cx + (u2 - 0.5) * w, y: cy + (u3 - 0.5) * h, z: cz + (s < xy ? -d : d) / 2)
            }
            s -= 2 * xy
            if s < 2 * yz {
                return EmissionPoint(x: cx + (s < yz ? -w : w) / 2, y: cy + (u2 - 0.5) * h, z: cz + (u3 - 0.5) * d)
            }
            s -= 2 * yz
            return EmissionPoint(x: cx + (u2 - 0.5) * w, y: cy + (s < xz ? -h : h) / 2, z: cz + (u3 - 0.5) * d)
        case (.cuboid, _):
            return EmissionPoint(x: cx + (u1 - 0.5) * w, y: cy + (u2 - 0.5) * h, z: cz + (u3 - 0.5) * d)
        case (.circle, .points), (.sphere, .points):
            return EmissionPoint(x: cx, y: cy, z: cz)
        case (.circle, .outline):
            let a = 2 * Double.pi * u1, r = w
            return EmissionPoint(x: cx + r * cos(a), y: cy + r * sin(a), z: cz, nx: cos(a), ny: sin(a), nz: 0)
        case (.circle, .surface):
            let a = 2 * Double.pi * u1, r = w * u2.squareRoot()
            return EmissionPoint(x: cx + r * cos(a), y: cy + r * sin(a), z: cz, nx: cos(a), ny: sin(a), nz: 0)
        case (.circle, _):
            let a = 2 * Double.pi * u1, r = w * u2.squareRoot()
            return EmissionPoint(x: cx + r * cos(a), y: cy + r * sin(a), z: cz)
        case (.sphere, .outline), (.sphere, .surface):
            let (nx, ny, nz) = unitSphere(u1, u2)
            let r = w
            return EmissionPoint(x: cx + r * nx, y: cy + r * ny, z: cz + r * nz, nx: nx, ny: ny, nz: nz)
        case (.sphere, _):
            let (nx, ny, nz) = unitSphere(u1, u2)
            let r = w * cbrt(u3)
            return EmissionPoint(x: cx + r * nx, y: cy + r * ny, z: cz + r * nz)
        }
    }

    /// A point on the rectangle's edges, uniform by length, relative to the centre.
    static func rectanglePerimeter(_ w: Double, _ h: Double, _ u: Double) -> (Double, Double) {
        let total = 2 * (w + h)
        guard total > 0 else { return (0, 0) }
        var s = u * total
        if s < w { return (s - w / 2, -h / 2) }
        s -= w
        if s < h { return (w / 2, s - h / 2) }
        s -= h
        if s < w { return (w / 2 - s, h / 2) }
        s -= w
        return (-w / 2, h / 2 - min(s, h))
    }

    static func unitSphere(_ u1: Double, _ u2: Double) -> (Double, Double, Double) {
        let z = 1 - 2 * u1, r = max(0, 1 - z * z).squareRoot(), a = 2 * Double.pi * u2
        return (r * cos(a), r * sin(a), z)
    }

    /// The unit direction of a new particle: the base direction turned by
    /// longitude (in the xy plane, clockwise on screen) and latitude (out of
    /// it, toward +z), then a uniform draw over the cone whose full angle is
    /// `range` (CAEmitterCell.h: "Emitted objects are uniformly distributed
    /// across this cone"). Uses draws `n` and `n + 1`.
    @inline(__always)
    static func direction(baseX: Double, baseY: Double, baseZ: Double,
                          longitude: Double, latitude: Double, range: Double,
                          _ random: ParticleRandom, _ n: UInt64) -> (Double, Double, Double) {
        let lon = atan2(baseY, baseX) + longitude
        let lat = asin(max(-1, min(1, baseZ))) + latitude
        let cosLat = cos(lat), sinLat = sin(lat), cosLon = cos(lon), sinLon = sin(lon)
        let ax = cosLat * cosLon, ay = cosLat * sinLon, az = sinLat
        let half = min(abs(range) / 2, Double.pi)
        guard half > 0 else { return (ax, ay, az) }
        let cosA = 1 - random.uniform(n) * (1 - cos(half))
        let sinA = max(0, 1 - cosA * cosA).squareRoot()
        let phi = 2 * Double.pi * random.uniform(n + 1)
        let c = cos(phi) * sinA, s = sin(phi) * sinA
        // e1 = (-sinLon, cosLon, 0), e2 = axis x e1
        return (cosA * ax - c * sinLon - s * sinLat * cosLon,
                cosA * ay + c * cosLon - s * sinLat * sinLon,
                cosA * az + s * cosLat)
    }
}
