/// A basic or spring animation of a whole number, point, size or rect
/// property, its ends unboxed once into lanes of doubles (a point is two
/// lanes, a rect four). Not generic: a generic class's deinit and field
/// copies go through value witnesses, which cost more than the animation's
/// whole evaluation when thousands are replaced in one transaction.
final class LaneTrack {
    /// Where the field lives in LayerState, and its size in doubles (1...4).
    let offset: Int
    let lanes: Int
    /// The field's type (for its ends as Values).
    let slot: FieldSlot
    /// Which of from, to, by and previous are set (bits 1, 2, 4, 8).
    let present: UInt8
    let from: SIMD4<Double>, to: SIMD4<Double>, by: SIMD4<Double>, previous: SIMD4<Double>

    /// nil when the slot is a transform or a value has another type.
    init?(slot: FieldSlot, _ a: Animation, previous: Value?) {
        guard slot.lanes <= 4 else { return nil }
        var present: UInt8 = 0
        func unbox(_ v: Value?, _ bit: UInt8) -> SIMD4<Double>? {
            guard let v else { return SIMD4() }
            present |= bit
            return slot.lanes(of: v)
        }
        guard let f = unbox(a.fromValue, 1), let t = unbox(a.toValue, 2), let b = unbox(a.byValue, 4),
              let p = unbox(previous, 8) else { return nil }
        offset = slot.offset
        lanes = slot.lanes
        self.slot = slot
        self.present = present
        (from, to, by, self.previous) = (f, t, b, p)
    }

    /// From `from` to `to`, already in lanes (`slot.lanes` <= 4); `from` is
    /// also the value before it (the built-in action's start, S3.3).
    init(slot: FieldSlot, from: SIMD4<Double>, to: SIMD4<Double>) {
        offset = slot.offset
        lanes = slot.lanes
        self.slot = slot
        present = 1 | 2 | 8
        (self.from, self.to, by, previous) = (from, to, SIMD4(), from)
    }

    /// S4.8: writes the animated value of the field into `state`.
    func apply(_ a: Animation, progress: Double, iteration: Int, to state: UnsafeMutablePointer<LayerState>,
               model: UnsafePointer<LayerState>, eased: Double? = nil) {
        let field = UnsafeMutableRawPointer(state).advanced(by: offset).assumingMemoryBound(to: Double.self)
        let modelField = UnsafeRawPointer(model).advanced(by: offset).assumingMemoryBound(to: Double.self)
        LaneMath.apply(present: present, from: from, to: to, by: by, previous: previous, lanes: lanes,
                       additive: a.additive, cumulative: a.accumulates, iteration: iteration,
                       eased: eased ?? Interpolation.fraction(a, progress), field: field, modelField: modelField)
    }
}

/// S4.8 on lanes of doubles: the ends from from/to/by and the value before
/// the animation, then the interpolation, cumulative repeats and additive
/// blending. Shared by LaneTrack and the render side's inline tracks.
enum LaneMath {
    @inline(__always)
    static func apply(present: UInt8, from: SIMD4<Double>, to: SIMD4<Double>, by: SIMD4<Double>,
                      previous: SIMD4<Double>, lanes: Int, additive: Bool, cumulative: Bool, iteration: Int,
                      eased: Double, field: UnsafeMutablePointer<Double>, modelField: UnsafePointer<Double>) {
        let base = load(UnsafePointer(field), lanes), start = present & 8 != 0 ? previous : base
        let zero = SIMD4<Double>()
        let ends: (SIMD4<Double>, SIMD4<Double>)
        switch present & 7 {
        case 0b011, 0b111: ends = (from, to)
        case 0b101: ends = (from, from + by)
        case 0b110: ends = (to - by, to)
        case 0b001: ends = (from, load(modelField, lanes))
        case 0b010: ends = (additive ? zero : start, to)
        case 0b100: ends = additive ? (zero, by) : (start, start + by)
        default: ends = (start, base)
        }
        var v = SIMD4<Double>()
        for i in 0..<lanes { v[i] = Interpolation.lerp(ends.0[i], ends.1[i], eased) }
        if cumulative && iteration > 0 { v += (ends.1 - ends.0) * Double(iteration) }
        if additive { v += base }
        for i in 0..<lanes { field[i] = v[i] }
    }

    @inline(__always)
    static func load(_ p: UnsafePointer<Double>, _ lanes: Int) -> SIMD4<Double> {
        var v = SIMD4<Double>()
        for i in 0..<lanes { v[i] = p[i] }
        return v
    }
}

extension FieldSlot {
    /// The field's doubles in `state`.
    func field(in state: UnsafePointer<LayerState>) -> UnsafePointer<Double> {
        UnsafeRawPointer(state).advanced(by: offset).assumingMemoryBound(to: Double.self)
    }

    /// A value of the slot's type (number, point, size, rect) as lanes; nil otherwise.
    func lanes(of value: Value) -> SIMD4<Double>? {
        switch (self, value) {
        case let (.number, .number(d)): SIMD4(d, 0, 0, 0)
        case let (.point, .point(p)): SIMD4(p.x, p.y, 0, 0)
        case let (.size, .size(s)): SIMD4(s.width, s.height, 0, 0)
        case let (.rect, .rect(r)): SIMD4(r.origin.x, r.origin.y, r.size.width, r.size.height)
        default: nil
        }
    }
}
