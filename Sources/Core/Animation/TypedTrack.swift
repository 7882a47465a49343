import CSupport

/// Values with the arithmetic of basic animations (S4.8), componentwise.
protocol AnimatableValue: PropertyValue {
    static var zero: Self { get }
    static func lerp(_ a: Self, _ b: Self, _ t: Double) -> Self
    static func add(_ a: Self, _ b: Self) -> Self
    static func scale(_ a: Self, _ k: Double) -> Self
}

extension AnimatableValue {
    static func subtract(_ a: Self, _ b: Self) -> Self { add(a, scale(b, -1)) }
}

extension Double: AnimatableValue {
    static func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { Interpolation.lerp(a, b, t) }
    static func add(_ a: Double, _ b: Double) -> Double { a + b }
    static func scale(_ a: Double, _ k: Double) -> Double { a * k }
}

extension Point: AnimatableValue {
    static func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point {
        Point(x: Interpolation.lerp(a.x, b.x, t), y: Interpolation.lerp(a.y, b.y, t))
    }
    static func add(_ a: Point, _ b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    static func scale(_ a: Point, _ k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }
}

extension Size: AnimatableValue {
    static func lerp(_ a: Size, _ b: Size, _ t: Double) -> Size {
        Size(width: Interpolation.lerp(a.width, b.width, t), height: Interpolation.lerp(a.height, b.height, t))
    }
    static func add(_ a: Size, _ b: Size) -> Size { Size(width: a.width + b.width, height: a.height + b.height) }
    static func scale(_ a: Size, _ k: Double) -> Size { Size(width: a.width * k, height: a.height * k) }
}

extension Rect: AnimatableValue {
    static func lerp(_ a: Rect, _ b: Rect, _ t: Double) -> Rect {
        Rect(origin: Point.lerp(a.origin, b.origin, t), size: Size.lerp(a.size, b.size, t))
    }
    static func add(_ a: Rect, _ b: Rect) -> Rect { Rect(origin: Point.add(a.origin, b.origin), size: Size.add(a.size, b.size)) }
    static func scale(_ a: Rect, _ k: Double) -> Rect { Rect(origin: Point.scale(a.origin, k), size: Size.scale(a.size, k)) }
}

/// A basic or spring animation of a whole number, point, size or rect property with
/// its values unboxed once when added: evaluating it each frame touches
/// only that field of the state, with no Value boxing (the general path in
/// AnimationEvaluator handles every other case with the same rules).
final class TypedTrack<T: AnimatableValue> {
    /// Where the field lives in LayerState: read and written in place.
    let offset: Int
    let from: T?, to: T?, by: T?
    let previous: T?

    convenience init?(_ keyPath: WritableKeyPath<LayerState, T>, _ a: Animation, previous: Value?) {
        guard let offset = MemoryLayout<LayerState>.offset(of: keyPath) else { return nil }
        self.init(offset: offset, a, previous: previous)
    }

    /// `offset`: where the field lives (unused by `value(...)`, which works on values alone).
    init?(offset: Int, _ a: Animation, previous: Value?) {
        func unbox(_ v: Value?) -> T?? {
            guard let v else { return .some(nil) }
            guard let typed = T.from(v) else { return nil }
            return .some(typed)
        }
        guard let f = unbox(a.fromValue), let t = unbox(a.toValue), let b = unbox(a.byValue),
              let p = unbox(previous) else { return nil }
        self.offset = offset
        (from, to, by, self.previous) = (f, t, b, p)
    }

    @inline(__always)
    private func field(_ state: UnsafePointer<LayerState>) -> UnsafeMutablePointer<T> {
        UnsafeMutableRawPointer(mutating: state).advanced(by: offset).assumingMemoryBound(to: T.self)
    }

    /// S4.8, as AnimationEvaluator.value(of:) does it for Values.
    func apply(_ a: Animation, progress: Double, iteration: Int, to state: UnsafeMutablePointer<LayerState>,
               model: UnsafePointer<LayerState>) {
        field(state).pointee = value(a, progress: progress, iteration: iteration, base: field(state).pointee,
                                     model: { field(model).pointee })
    }

    /// The value at `progress` over `base` (the value before this animation
    /// applies); `model` is read only by "from only" animations.
    @inline(__always)
    func value(_ a: Animation, progress: Double, iteration: Int, base: T, model: () -> T) -> T {
        let start = previous ?? base
        let ends: (T, T)
        switch (from, to, by) {
        case let (f?, t?, _): ends = (f, t)
        case let (f?, nil, b?): ends = (f, T.add(f, b))
        case let (nil, t?, b?): ends = (T.subtract(t, b), t)
        case let (f?, nil, nil): ends = (f, model())
        case let (nil, t?, nil): ends = (a.additive ? T.zero : start, t)
        case let (nil, nil, b?): ends = a.additive ? (T.zero, b) : (start, T.add(start, b))
        case (nil, nil, nil): ends = (start, base)
        }
        let eased = Interpolation.fraction(a, progress)
        var v = T.lerp(ends.0, ends.1, eased)
        if a.accumulates && iteration > 0 { v = T.add(v, T.scale(T.subtract(ends.1, ends.0), Double(iteration))) }
        if a.additive { v = T.add(base, v) }
        return v
    }
}

/// A basic or spring animation of one part of a transform
/// (`transform.rotation.z`, `transform.scale.x`, `transform.translation`,
/// ... S4.9): its values unboxed when added, and the decomposition of the
/// transform it applies over kept while that transform stays the same (the
/// model's, usually), so a frame costs one composition, not two
/// decompositions and a key path parse as through Values. Used only under
/// the render tree's lock, which guards the cache.
final class TransformPartTrack {
    let offset: Int
    let part: TransformKeyPath.Part
    private let number: TypedTrack<Double>?
    private let size: TypedTrack<Size>?
    private var cache: (transform: Transform3D, decomposed: DecomposedTransform)?
    private var modelCache: (transform: Transform3D, decomposed: DecomposedTransform)?

    init?(offset: Int, subpath: [Substring], _ a: Animation, previous: Value?) {
        guard let part = try? TransformKeyPath.part(subpath, keyPath: a.keyPath ?? "") else { return nil }
        self.offset = offset
        self.part = part
        if case .translation(nil) = part {
            guard let track = TypedTrack<Size>(offset: offset, a, previous: previous) else { return nil }
            (size, number) = (track, nil)
        } else {
            guard let track = TypedTrack<Double>(offset: offset, a, previous: previous) else { return nil }
            (size, number) = (nil, track)
        }
    }

    private func decomposed(_ t: Transform3D, model: Bool) -> DecomposedTransform {
        if model, let c = modelCache, c.transform == t { return c.decomposed }
        if !model, let c = cache, c.transform == t { return c.decomposed }
        let d = TransformKeyPath.decompose(t)
        if model { modelCache = (t, d) } else { cache = (t, d) }
        return d
    }

    func apply(_ a: Animation, progress: Double, iteration: Int, to state: UnsafeMutablePointer<LayerState>,
               model: UnsafePointer<LayerState>) {
        let field = UnsafeMutableRawPointer(state).advanced(by: offset).assumingMemoryBound(to: Transform3D.self)
        let modelField = UnsafeRawPointer(model).advanced(by: offset).assumingMemoryBound(to: Transform3D.self)
        let d = decomposed(field.pointee, model: false)
        let base = TransformKeyPath.component(part, of: d)
        let value: Value
        if let number, case .number(let b) = base {
            value = .number(number.value(a, progress: progress, iteration: iteration, base: b, model: {
                guard case .number(let m) = TransformKeyPath.component(part, of: decomposed(modelField.pointee, model: true))
                else { return b }
                return m
            }))
        } else if let size, case .size(let b) = base {
            value = .size(size.value(a, progress: progress, iteration: iteration, base: b, model: {
                guard case .size(let m) = TransformKeyPath.component(part, of: decomposed(modelField.pointee, model: true))
                else { return b }
                return m
            }))
        } else {
            return
        }
        if let t = TransformKeyPath.setting(value, part, in: d) { field.pointee = t }
    }
}

/// The typed tracks there are; nil means the general path.
enum FastTrack {
    /// Whole number, point, size and rect properties.
    case lanes(LaneTrack)
    case transform(TransformTrack)
    case transformPart(TransformPartTrack)

    /// `slot`: the property's field (AnyProperty.slot), nil for the
    /// properties that only the general path animates.
    static func make(slot: FieldSlot?, subpath: [Substring], animation a: Animation, previous: Value?) -> FastTrack? {
        guard let slot else { return nil }
        if !subpath.isEmpty {
            // transform.rotation.z and the other parts of a transform (S4.9).
            guard case .transform(let offset) = slot else { return nil }
            return TransformPartTrack(offset: offset, subpath: subpath, a, previous: previous).map(FastTrack.transformPart)
        }
        if case .transform(let o) = slot {
            return TransformTrack(offset: o, a, previous: previous).map(FastTrack.transform)
        }
        return LaneTrack(slot: slot, a, previous: previous).map(FastTrack.lanes)
    }

    /// Its from and to values, as Values (the built-in action's, which its
    /// animation does not hold itself).
    var fromValue: Value? {
        switch self {
        case .lanes(let t): t.present & 1 != 0 ? t.slot.value(lanes: t.from) : nil
        case .transform(let t): t.fromValue
        case .transformPart: nil
        }
    }

    var toValue: Value? {
        switch self {
        case .lanes(let t): t.present & 2 != 0 ? t.slot.value(lanes: t.to) : nil
        case .transform(let t): t.toValue
        case .transformPart: nil
        }
    }

    /// The track object, whatever its kind.
    var object: AnyObject {
        switch self {
        case .lanes(let t): t
        case .transform(let t): t
        case .transformPart(let t): t
        }
    }

    /// `eased`: the progress through the timing function when the caller
    /// has it already (basic animations); computed here otherwise.
    func apply(_ a: Animation, progress: Double, iteration: Int, to state: UnsafeMutablePointer<LayerState>,
               model: UnsafePointer<LayerState>, eased: Double? = nil) {
        switch self {
        case .lanes(let t): t.apply(a, progress: progress, iteration: iteration, to: state, model: model, eased: eased)
        case .transform(let t): t.apply(a, progress: progress, to: state, model: model, eased: eased)
        case .transformPart(let t): t.apply(a, progress: progress, iteration: iteration, to: state, model: model)
        }
    }
}

/// A basic, non-additive, non-cumulative animation of a whole transform
/// (transform, sublayerTransform) from fixed ends: the ends are decomposed
/// once, not every frame (S4.9 interpolates by decomposition). Used only
/// under the render tree's lock, which guards the cache.
final class TransformTrack {
    let offset: Int
    /// from, to, previous, and the ends last decomposed, at fixed addresses:
    /// a frame compares and picks them by pointer (a transform is 128 bytes,
    /// and each copy of one was a memcpy call).
    private let slots = UnsafeMutablePointer<Transform3D>.allocate(capacity: 5)
    private let hasFrom: Bool, hasTo: Bool, hasPrevious: Bool
    private var decomposedFrom = DecomposedTransform(), decomposedTo = DecomposedTransform()
    /// The rotation's arc between the decomposed ends (an acos and a sin), planned with them.
    private var rotation = Interpolation.SlerpPlan((0, 0, 0, 1), (0, 0, 0, 1))
    private var cached = false
    private var from: UnsafeMutablePointer<Transform3D> { slots }
    private var to: UnsafeMutablePointer<Transform3D> { slots + 1 }
    private var previous: UnsafeMutablePointer<Transform3D> { slots + 2 }
    private var cachedFrom: UnsafeMutablePointer<Transform3D> { slots + 3 }
    private var cachedTo: UnsafeMutablePointer<Transform3D> { slots + 4 }

    /// From `from` to `to` (the built-in action's animation, S3.3).
    init(offset: Int, from: Transform3D, to: Transform3D) {
        self.offset = offset
        slots.initialize(repeating: .identity, count: 5)
        (hasFrom, hasTo, hasPrevious) = (true, true, true)
        slots[0] = from
        slots[1] = to
        slots[2] = from
    }

    /// Its ends as Values (nil where unset); read outside frames only.
    var fromValue: Value? { hasFrom ? .transform(slots[0]) : nil }
    var toValue: Value? { hasTo ? .transform(slots[1]) : nil }

    init?(offset: Int, _ a: Animation, previous: Value?) {
        guard !a.additive, !a.cumulative, a.byValue == nil else {
            slots.deallocate()
            return nil
        }
        func unbox(_ v: Value?) -> Transform3D?? {
            guard let v else { return .some(nil) }
            guard case .transform(let t) = v else { return nil }
            return .some(t)
        }
        guard let f = unbox(a.fromValue), let t = unbox(a.toValue), let p = unbox(previous) else {
            slots.deallocate()
            return nil
        }
        self.offset = offset
        slots.initialize(repeating: .identity, count: 5)
        (hasFrom, hasTo, hasPrevious) = (f != nil, t != nil, p != nil)
        if let f { slots[0] = f }
        if let t { slots[1] = t }
        if let p { slots[2] = p }
    }

    deinit {
        slots.deinitialize(count: 5)
        slots.deallocate()
    }

    private func field(_ state: UnsafePointer<LayerState>) -> UnsafeMutablePointer<Transform3D> {
        UnsafeMutableRawPointer(mutating: state).advanced(by: offset).assumingMemoryBound(to: Transform3D.self)
    }

    /// Equal as transforms (element by element, as ==), read in place.
    private static func same(_ a: UnsafePointer<Transform3D>, _ b: UnsafePointer<Transform3D>) -> Bool {
        if a == b { return true }
        let x = UnsafeRawPointer(a).loadUnaligned(as: SIMD16<Double>.self)
        let y = UnsafeRawPointer(b).loadUnaligned(as: SIMD16<Double>.self)
        return all(x .== y)
    }

    func apply(_ a: Animation, progress: Double, to state: UnsafeMutablePointer<LayerState>,
               model: UnsafePointer<LayerState>, eased: Double? = nil) {
        apply(eased: eased ?? Interpolation.fraction(a, progress), to: state, model: model)
    }

    /// Asks for what `apply` reads (the object and its ends) ahead of it.
    func prefetch() {
        layerkit_support_prefetch(Unmanaged.passUnretained(self).toOpaque(), 512)
        layerkit_support_prefetch(slots, 5 * MemoryLayout<Transform3D>.stride)
    }

    /// The transform at `eased`, the progress through the timing function.
    func apply(eased: Double, to state: UnsafeMutablePointer<LayerState>, model: UnsafePointer<LayerState>) {
        apply(eased: eased, to: field(state), model: field(model))
    }

    /// The same on the field alone, wherever it is (`base`, which holds the
    /// value beneath, and the model's): a presentation value asked for
    /// outside a frame uses the decomposition the frames keep.
    func apply(eased: Double, to base: UnsafeMutablePointer<Transform3D>, model modelField: UnsafePointer<Transform3D>) {
        let start: UnsafeMutablePointer<Transform3D> = hasFrom ? from : hasPrevious ? previous : base
        let end: UnsafeMutablePointer<Transform3D> = hasTo ? to : hasFrom ? UnsafeMutablePointer(mutating: modelField) : base
        let equalEnds = TransformTrack.same(start, end)
        if eased == 0 || eased == 1 || equalEnds {
            let pick = eased < 0.5 || equalEnds ? start : end
            if pick != base { base.pointee = pick.pointee }
            return
        }
        if !cached || !TransformTrack.same(cachedFrom, start) || !TransformTrack.same(cachedTo, end) {
            guard let da = DecomposedTransform(start.pointee), let db = DecomposedTransform(end.pointee) else {
                cached = false
                base.pointee = (eased < 0.5 ? start : end).pointee
                return
            }
            cachedFrom.pointee = start.pointee
            cachedTo.pointee = end.pointee
            (decomposedFrom, decomposedTo, cached) = (da, db, true)
            rotation = Interpolation.SlerpPlan(da.quaternion, db.quaternion)
        }
        base.pointee = Interpolation.interpolate(decomposedFrom, decomposedTo, eased, rotation: rotation).transform
    }
}

/// Where a whole number, point, size, rect or transform property lives in
/// LayerState: the Value path (keyframes, springs, group children) reads
/// and writes it there directly, instead of through the erased key path
/// accessors, which copy the state.
enum FieldSlot {
    case number(Int), point(Int), size(Int), rect(Int), transform(Int)

    static func make(key: String, subpath: [Substring]) -> FieldSlot? {
        guard subpath.isEmpty else { return nil }
        typealias P = LayerProperties
        func at<T>(_ keyPath: WritableKeyPath<LayerState, T>) -> Int? { MemoryLayout<LayerState>.offset(of: keyPath) }
        switch key {
        case P.opacity.key, P.zPosition.key, P.anchorPointZ.key, P.cornerRadius.key, P.borderWidth.key,
             P.shadowOpacity.key, P.shadowRadius.key:
            let row: WritableKeyPath<LayerState, Double> = switch key {
            case P.opacity.key: P.opacity.keyPath
            case P.zPosition.key: P.zPosition.keyPath
            case P.anchorPointZ.key: P.anchorPointZ.keyPath
            case P.cornerRadius.key: P.cornerRadius.keyPath
            case P.borderWidth.key: P.borderWidth.keyPath
            case P.shadowOpacity.key: P.shadowOpacity.keyPath
            default: P.shadowRadius.keyPath
            }
            return at(row).map(FieldSlot.number)
        case P.position.key: return at(P.position.keyPath).map(FieldSlot.point)
        case P.anchorPoint.key: return at(P.anchorPoint.keyPath).map(FieldSlot.point)
        case P.shadowOffset.key: return at(P.shadowOffset.keyPath).map(FieldSlot.size)
        case P.bounds.key: return at(P.bounds.keyPath).map(FieldSlot.rect)
        case P.contentsRect.key: return at(P.contentsRect.keyPath).map(FieldSlot.rect)
        case P.contentsCenter.key: return at(P.contentsCenter.keyPath).map(FieldSlot.rect)
        case P.transform.key: return at(P.transform.keyPath).map(FieldSlot.transform)
        case P.sublayerTransform.key: return at(P.sublayerTransform.keyPath).map(FieldSlot.transform)
        default: return nil
        }
    }

    var offset: Int {
        switch self {
        case .number(let o), .point(let o), .size(let o), .rect(let o), .transform(let o): o
        }
    }

    /// The field's size in doubles.
    var lanes: Int {
        switch self {
        case .number: 1
        case .point, .size: 2
        case .rect: 4
        case .transform: 16
        }
    }

    /// The value of a field of up to four doubles, from its lanes.
    func value(lanes v: SIMD4<Double>) -> Value {
        switch self {
        case .number: .number(v[0])
        case .point: .point(Point(x: v[0], y: v[1]))
        case .size: .size(Size(width: v[0], height: v[1]))
        case .rect: .rect(Rect(x: v[0], y: v[1], width: v[2], height: v[3]))
        case .transform: .none
        }
    }

    func read(_ state: UnsafePointer<LayerState>) -> Value {
        let raw = UnsafeRawPointer(state)
        switch self {
        case .number(let o): return .number(raw.advanced(by: o).assumingMemoryBound(to: Double.self).pointee)
        case .point(let o): return .point(raw.advanced(by: o).assumingMemoryBound(to: Point.self).pointee)
        case .size(let o): return .size(raw.advanced(by: o).assumingMemoryBound(to: Size.self).pointee)
        case .rect(let o): return .rect(raw.advanced(by: o).assumingMemoryBound(to: Rect.self).pointee)
        case .transform(let o): return .transform(raw.advanced(by: o).assumingMemoryBound(to: Transform3D.self).pointee)
        }
    }

    /// False when the value is not of the slot's type (then nothing is written).
    func write(_ value: Value, to state: UnsafeMutablePointer<LayerState>) -> Bool {
        let raw = UnsafeMutableRawPointer(state)
        switch (self, value) {
        case let (.number(o), .number(v)): raw.advanced(by: o).assumingMemoryBound(to: Double.self).pointee = v
        case let (.point(o), .point(v)): raw.advanced(by: o).assumingMemoryBound(to: Point.self).pointee = v
        case let (.size(o), .size(v)): raw.advanced(by: o).assumingMemoryBound(to: Size.self).pointee = v
        case let (.rect(o), .rect(v)): raw.advanced(by: o).assumingMemoryBound(to: Rect.self).pointee = v
        case let (.transform(o), .transform(v)): raw.advanced(by: o).assumingMemoryBound(to: Transform3D.self).pointee = v
        default: return false
        }
        return true
    }
}
