import Glibc

/// Arithmetic on property values for animation (S4.8, S4.9): interpolation
/// between two values, and the sum, difference and multiple that by-values,
/// additive and cumulative animations are built from.
public enum Interpolation {
    // MARK: Interpolation

    /// S4.9: the value a fraction `p` of the way from `from` to `to`, or nil
    /// when the two have different types.
    ///
    /// - Numbers, points, sizes and rects: componentwise.
    /// - Colours: componentwise on premultiplied sRGB, so that a fade from
    ///   clear to red stays red while its alpha rises, instead of passing
    ///   through the dark (0,0,0) that clear's straight components hold. The
    ///   result is clamped to 0...1 and returned with straight alpha. `none`
    ///   against a colour is clear.
    /// - Transforms: decomposed, parts interpolated (rotation by spherical
    ///   interpolation on the shorter arc) and recomposed, so a 180° turn
    ///   about z passes through 90°. When either cannot be decomposed, they
    ///   switch like discrete values.
    /// - Paths with the same elements morph point by point (S7.1).
    /// - Booleans, strings, images, other paths, layers and none switch at 0.5:
    ///   `from` below it, `to` from it on. `none` against one of these
    ///   switches too, since each is the type of an optional property.
    ///
    /// p may leave 0...1 (overshooting timing functions): continuous values
    /// extrapolate linearly. p = 0 returns `from` and p = 1 returns `to`
    /// exactly (colours clamped).
    public static func interpolate(_ from: Value, _ to: Value, _ p: Double) -> Value? {
        switch (from, to) {
        case let (.number(a), .number(b)): return .number(lerp(a, b, p))
        case let (.point(a), .point(b)): return .point(interpolate(a, b, p))
        case let (.size(a), .size(b)): return .size(interpolate(a, b, p))
        case let (.rect(a), .rect(b)): return .rect(interpolate(a, b, p))
        case let (.color(a), .color(b)): return .color(interpolate(a, b, p))
        case let (.none, .color(b)):
            return p == 0 ? Value.none : .color(interpolate(Color(r: b.r, g: b.g, b: b.b, a: 0), b, p))
        case let (.color(a), .none):
            return p == 1 ? Value.none : .color(interpolate(a, Color(r: a.r, g: a.g, b: a.b, a: 0), p))
        case let (.transform(a), .transform(b)): return .transform(interpolate(a, b, p))
        case let (.path(a), .path(b)):
            // S7.1: paths with the same elements interpolate point by point;
            // equal ones (and the ends) stay the objects given.
            if p != 0, p != 1, a.data != b.data, let morph = a.data.interpolated(to: b.data, p) {
                return .path(Path(morph, frozen: true))
            }
            return p < 0.5 ? from : to
        case let (.list(a), .list(b)):
            // Lists of one length interpolate element by element (gradient
            // colours and locations); others switch.
            if a.count == b.count {
                var out: [Value] = []
                out.reserveCapacity(a.count)
                for (x, y) in zip(a, b) {
                    guard let v = interpolate(x, y, p) else { return p < 0.5 ? from : to }
                    out.append(v)
                }
                return .list(out)
            }
            return p < 0.5 ? from : to
        case (.none, .none), (.bool, .bool), (.string, .string), (.image, .image), (.layer, .layer),
             (.none, .string), (.string, .none), (.none, .image), (.image, .none),
             (.none, .path), (.path, .none), (.none, .layer), (.layer, .none):
            return p < 0.5 ? from : to
        default:
            return nil
        }
    }

    /// a + (b - a) p, exact at both ends.
    /// How far from `from` to `to` a basic or spring animation is at
    /// `progress` (0...1 of its iteration): the timing function's value
    /// (S4.7), or for a spring the oscillator's fraction at that time (S4.11,
    /// beyond 1 while it overshoots).
    @inline(__always)
    static func fraction(_ a: Animation, _ progress: Double) -> Double {
        let eased = a.timingFunction?.evaluate(progress) ?? progress
        if a.animationKind == .spring { return a.spring.fraction(at: eased * a.timing.duration) }
        return eased
    }

    public static func lerp(_ a: Double, _ b: Double, _ p: Double) -> Double {
        if p == 0 || a == b { return a }
        if p == 1 { return b }
        let d = b - a
        // (ends of opposite signs near the largest doubles: their difference
        // overflows; -1e308 to 1e308 was infinite half-way)
        if !d.isFinite && a.isFinite && b.isFinite { return a * (1 - p) + b * p }
        return a + d * p
    }

    public static func interpolate(_ a: Point, _ b: Point, _ p: Double) -> Point {
        Point(x: lerp(a.x, b.x, p), y: lerp(a.y, b.y, p))
    }

    public static func interpolate(_ a: Size, _ b: Size, _ p: Double) -> Size {
        Size(width: lerp(a.width, b.width, p), height: lerp(a.height, b.height, p))
    }

    public static func interpolate(_ a: Rect, _ b: Rect, _ p: Double) -> Rect {
        Rect(origin: interpolate(a.origin, b.origin, p), size: interpolate(a.size, b.size, p))
    }

    /// Premultiplied sRGB, clamped, back to straight alpha (see above).
    public static func interpolate(_ a: Color, _ b: Color, _ p: Double) -> Color {
        if a.a <= 0 && b.a <= 0 {
            // Both transparent: premultiplied, every value between would be
            // (0,0,0,0), yet an additive animation's ends are offsets whose
            // colour matters (S4.8): straight components, not clamped (an
            // offset may lower a channel: clamped, (-0.4, 0.4, 0, 0) raised
            // green and left red alone). The sum with the model is clamped.
            if p == 0 { return a }
            if p == 1 { return b }
            return Color(r: lerp(a.r, b.r, p), g: lerp(a.g, b.g, p), b: lerp(a.b, b.b, p), a: lerp(a.a, b.a, p))
        }
        if p == 0 { return clamped(a) }
        if p == 1 { return clamped(b) }
        let alpha = min(max(lerp(a.a, b.a, p), 0), 1)
        guard alpha > 0 else { return Color(r: 0, g: 0, b: 0, a: 0) }
        // Premultiplied components can be at most alpha; dividing by alpha
        // then gives straight components within 0...1.
        func channel(_ x: Double, _ y: Double) -> Double {
            min(max(lerp(x * a.a, y * b.a, p), 0), alpha) / alpha
        }
        return Color(r: channel(a.r, b.r), g: channel(a.g, b.g), b: channel(a.b, b.b), a: alpha)
    }

    /// By decomposition (S4.9); switches at 0.5 when either side cannot be
    /// decomposed (a singular or non-finite matrix).
    public static func interpolate(_ a: Transform3D, _ b: Transform3D, _ p: Double) -> Transform3D {
        if p == 0 { return a }
        if p == 1 { return b }
        if a == b { return a }
        guard let da = DecomposedTransform(a), let db = DecomposedTransform(b) else {
            return p < 0.5 ? a : b
        }
        return interpolate(da, db, p).transform
    }

    public static func interpolate(_ a: DecomposedTransform, _ b: DecomposedTransform, _ p: Double) -> DecomposedTransform {
        interpolate(a, b, p, rotation: SlerpPlan(a.quaternion, b.quaternion))
    }

    /// interpolate(a, b, p) with the rotation's arc worked out already
    /// (`rotation` is SlerpPlan(a.quaternion, b.quaternion)): a track
    /// animating between fixed ends plans it once, not every frame.
    static func interpolate(_ a: DecomposedTransform, _ b: DecomposedTransform, _ p: Double,
                            rotation: SlerpPlan) -> DecomposedTransform {
        var r = DecomposedTransform()
        r.translation = (lerp(a.translation.x, b.translation.x, p),
                         lerp(a.translation.y, b.translation.y, p),
                         lerp(a.translation.z, b.translation.z, p))
        r.scale = (lerp(a.scale.x, b.scale.x, p), lerp(a.scale.y, b.scale.y, p), lerp(a.scale.z, b.scale.z, p))
        r.skew = (lerp(a.skew.xy, b.skew.xy, p), lerp(a.skew.xz, b.skew.xz, p), lerp(a.skew.yz, b.skew.yz, p))
        r.perspective = (lerp(a.perspective.x, b.perspective.x, p), lerp(a.perspective.y, b.perspective.y, p),
                         lerp(a.perspective.z, b.perspective.z, p), lerp(a.perspective.w, b.perspective.w, p))
        r.quaternion = rotation.at(p)
        return r
    }

    typealias Quaternion = (x: Double, y: Double, z: Double, w: Double)

    /// Spherical interpolation on the shorter arc: q and -q are the same
    /// rotation, so b is negated when it lies more than 90° away from a.
    /// Extrapolates for p outside 0...1.
    static func slerp(_ a: Quaternion, _ b: Quaternion, _ p: Double) -> Quaternion {
        SlerpPlan(a, b).at(p)
    }

    /// What slerp works out from the two ends alone: the end on the shorter
    /// arc, the arc's angle and its sine (an acos and a sin); `at(p)` is the
    /// rest, so a plan made once gives every frame slerp's very values.
    struct SlerpPlan {
        let a: Quaternion, b: Quaternion
        /// The arc's angle; 0 when the ends are nearly equal (then lerp and normalise).
        let theta: Double, sinTheta: Double

        init(_ a: Quaternion, _ b: Quaternion) {
            var b = b
            var d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w
            if d < 0 {
                b = (-b.x, -b.y, -b.z, -b.w)
                d = -d
            }
            self.a = a
            self.b = b
            if d > 0.9999 {
                // Nearly equal: sin θ is too small to divide by.
                (theta, sinTheta) = (0, 0)
            } else {
                theta = acos(min(d, 1))
                sinTheta = sin(theta)
            }
        }

        func at(_ p: Double) -> Quaternion {
            let wa: Double, wb: Double
            if sinTheta == 0 {
                (wa, wb) = (1 - p, p)
            } else {
                (wa, wb) = (sin((1 - p) * theta) / sinTheta, sin(p * theta) / sinTheta)
            }
            let q = (wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w)
            let n = (q.0 * q.0 + q.1 * q.1 + q.2 * q.2 + q.3 * q.3).squareRoot()
            guard n > 0 else { return a }
            return (q.0 / n, q.1 / n, q.2 / n, q.3 / n)
        }
    }

    // MARK: Arithmetic

    /// a + b, for by-values (to = from + by), additive animations
    /// (presentation = add(model, animated), S4.8) and cumulative ones.
    /// Numbers, points, sizes, rects and colours add componentwise; colours on
    /// straight components (a by-value is a difference, not a colour that
    /// could be premultiplied), clamped to 0...1, `none` counting as clear.
    ///
    /// Transforms: `b.concatenating(a)`, i.e. b applied first, in the frame
    /// that a then maps. For an additive animation, add(model, animated)
    /// = animated · model in row vectors, so an additive translation moves a
    /// rotated layer along its own rotated axes, as in Core Animation; for a
    /// by-value, from + by applies `by` in the from-transform's frame. For
    /// rotations about one axis either order gives the same result (π/4 + π/2
    /// is 3π/4). nil for types that cannot be added.
    public static func add(_ a: Value, _ b: Value) -> Value? {
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(x + y)
        case let (.point(x), .point(y)): return .point(Point(x: x.x + y.x, y: x.y + y.y))
        case let (.size(x), .size(y)): return .size(Size(width: x.width + y.width, height: x.height + y.height))
        case let (.rect(x), .rect(y)):
            return .rect(Rect(x: x.origin.x + y.origin.x, y: x.origin.y + y.origin.y,
                              width: x.size.width + y.size.width, height: x.size.height + y.size.height))
        case (.color, .color), (.none, .color), (.color, .none):
            return .color(clamped(combine(color(a), color(b)) { $0 + $1 }))
        case let (.transform(x), .transform(y)): return .transform(y.concatenating(x))
        case let (.list(x), .list(y)) where x.count == y.count:
            return elementwise(x, y, add)
        default: return nil
        }
    }

    private static func elementwise(_ x: [Value], _ y: [Value], _ f: (Value, Value) -> Value?) -> Value? {
        var out: [Value] = []
        for (a, b) in zip(x, y) {
            guard let v = f(a, b) else { return nil }
            out.append(v)
        }
        return .list(out)
    }

    /// a - b (by + to: from = to - by), the inverse of `add`: add(subtract(a,
    /// b), b) == a. Colours are not clamped, so the result can stand for a
    /// difference (with add clamping the final sum). Transforms: b⁻¹ · a,
    /// nil when b is singular. nil for types that cannot be subtracted.
    public static func subtract(_ a: Value, _ b: Value) -> Value? {
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(x - y)
        case let (.point(x), .point(y)): return .point(Point(x: x.x - y.x, y: x.y - y.y))
        case let (.size(x), .size(y)): return .size(Size(width: x.width - y.width, height: x.height - y.height))
        case let (.rect(x), .rect(y)):
            return .rect(Rect(x: x.origin.x - y.origin.x, y: x.origin.y - y.origin.y,
                              width: x.size.width - y.size.width, height: x.size.height - y.size.height))
        case (.color, .color), (.none, .color), (.color, .none):
            return .color(combine(color(a), color(b)) { $0 - $1 })
        case let (.transform(x), .transform(y)):
            guard let inverse = y.inverted else { return nil }
            return .transform(inverse.concatenating(x))
        case let (.list(x), .list(y)) where x.count == y.count:
            return elementwise(x, y, subtract)
        default: return nil
        }
    }

    /// v multiplied by k (cumulative: k whole iterations of end - start).
    /// Colours componentwise without clamping (v is a difference).
    /// Transforms by decomposition: translation, skew and perspective times
    /// k, rotation angle times k about the same axis, scale to the power k;
    /// nil when v cannot be decomposed or a negative scale has no real
    /// power. A transform's rotation is read back within 0...π, so a whole
    /// turn scales to nothing: the virtual key paths (`transform.rotation.z`)
    /// carry angles for that. nil for types that cannot be scaled.
    public static func scale(_ v: Value, by k: Double) -> Value? {
        switch v {
        case let .number(x): return .number(x * k)
        case let .point(x): return .point(Point(x: x.x * k, y: x.y * k))
        case let .size(x): return .size(Size(width: x.width * k, height: x.height * k))
        case let .rect(x):
            return .rect(Rect(x: x.origin.x * k, y: x.origin.y * k, width: x.size.width * k, height: x.size.height * k))
        case let .color(c): return .color(Color(r: c.r * k, g: c.g * k, b: c.b * k, a: c.a * k))
        case let .transform(t): return scale(t, by: k).map { .transform($0) }
        case let .list(items):
            var out: [Value] = []
            for item in items {
                guard let v = scale(item, by: k) else { return nil }
                out.append(v)
            }
            return .list(out)
        default: return nil
        }
    }

    public static func scale(_ t: Transform3D, by k: Double) -> Transform3D? {
        if k == 1 { return t }
        guard let d = DecomposedTransform(t) else { return nil }
        var r = DecomposedTransform()
        r.translation = (d.translation.x * k, d.translation.y * k, d.translation.z * k)
        r.scale = (pow(d.scale.x, k), pow(d.scale.y, k), pow(d.scale.z, k))
        guard r.scale.x.isFinite, r.scale.y.isFinite, r.scale.z.isFinite else { return nil }
        r.skew = (d.skew.xy * k, d.skew.xz * k, d.skew.yz * k)
        r.perspective = (d.perspective.x * k, d.perspective.y * k, d.perspective.z * k, d.perspective.w)
        // q = (sin(θ/2) axis, cos(θ/2)); the k-th power turns by kθ.
        let q = d.quaternion
        let s = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
        if s > 0 {
            let half = atan2(s, q.w) * k
            let f = sin(half) / s
            r.quaternion = (q.x * f, q.y * f, q.z * f, cos(half))
        }
        return r.transform
    }

    // MARK: Helpers

    private static func color(_ v: Value) -> Color {
        if case let .color(c) = v { return c }
        return .clear
    }

    private static func combine(_ a: Color, _ b: Color, _ f: (Double, Double) -> Double) -> Color {
        Color(r: f(a.r, b.r), g: f(a.g, b.g), b: f(a.b, b.b), a: f(a.a, b.a))
    }

    private static func clamped(_ c: Color) -> Color {
        func unit(_ x: Double) -> Double { min(max(x, 0), 1) }
        return Color(r: unit(c.r), g: unit(c.g), b: unit(c.b), a: unit(c.a))
    }
}
