/// CAReplicatorLayer's properties (S7.5), with CAReplicatorLayer.h's
/// defaults: one instance, no delay, identity instance transform, opaque
/// white instance colour, no colour offsets.
public struct ReplicatorState: KindState {
    public static var kind: LayerKind { .replicator }
    /// A whole number; 0 draws no sublayers at all.
    public var instanceCount = 1.0
    /// Instance n's sublayers see time shifted back by n x instanceDelay.
    public var instanceDelay = 0.0
    /// Instance n draws through instanceTransform^n, about the centre of
    /// the layer's bounds (not its anchor point).
    public var instanceTransform = Transform3D.identity
    /// Multiplies instance 0; instance n adds n x the offsets (clamped to 0...1).
    public var instanceColor = Color(r: 1, g: 1, b: 1, a: 1)
    public var instanceRedOffset = 0.0
    public var instanceGreenOffset = 0.0
    public var instanceBlueOffset = 0.0
    public var instanceAlphaOffset = 0.0
    public var preservesDepth = false
    public init() {}

    /// Instance n's colour: instanceColor plus n x the offsets, each clamped.
    public func color(ofInstance n: Int) -> Color {
        func unit(_ v: Double) -> Double { min(1, max(0, v)) }
        let k = Double(n)
        return Color(r: unit(instanceColor.r + k * instanceRedOffset), g: unit(instanceColor.g + k * instanceGreenOffset),
                     b: unit(instanceColor.b + k * instanceBlueOffset), a: unit(instanceColor.a + k * instanceAlphaOffset))
    }

    /// Whether instance 0 is drawn (there is one, and its colour is not
    /// clear). The sublayers' animations start and stop on their own time,
    /// which is instance 0's: they note their events (S4.6) when instance 0
    /// is drawn, and as layers not drawn when it is not; later instances,
    /// whose time is shifted by the delay, note none.
    public var drawsInstanceZero: Bool { instanceCount >= 1 && color(ofInstance: 0).a > 0 }

    /// The most instances a replicator draws: each instance draws every
    /// sublayer again, so a count beyond this is taken as a mistake.
    public static let maximumInstanceCount = 10_000.0

    /// The instances drawn: instanceCount as a whole number within
    /// 0...maximumInstanceCount. The model's always is (its setter checks);
    /// a presented one may not be: a spring to 0 overshoots below it, an
    /// animation may run to 1e20. Taken as it was, a count past Int's range
    /// trapped, a negative one trapped in a 3D space's loop, and 1e15 drew
    /// instances for minutes.
    public var drawnInstanceCount: Int { ReplicatorState.drawnCount(instanceCount) }

    /// A count as drawnInstanceCount takes it.
    public static func drawnCount(_ count: Double) -> Int {
        guard count >= 1 else { return 0 }   // (NaN too)
        return Int(min(count, maximumInstanceCount))
    }
}

extension LayerState {
    public var replicator: ReplicatorState {
        get { kindState(ReplicatorState.self) }
        set { setKindState(newValue) }
    }
}

/// The replicator layer's rows; all animatable but preservesDepth
/// (CAReplicatorLayer.h marks instanceCount, instanceDelay, instanceTransform,
/// instanceColor and the offsets animatable).
public enum ReplicatorProperties {
    private static func row<T>(_ key: String, _ keyPath: WritableKeyPath<ReplicatorState, T>, animatable: Bool = true,
                               check: ((T, LayerState) throws(LayerKitError) -> T)? = nil) -> Property<T> {
        let base: WritableKeyPath<LayerState, ReplicatorState> = \.replicator
        return Property(key, base.appending(path: keyPath), animatable: animatable, effect: .appearance,
                        kind: .replicator, check: check)
    }

    public static let instanceCount = row("instanceCount", \.instanceCount) { v, _ throws(LayerKitError) in
        guard v >= 0, v <= ReplicatorState.maximumInstanceCount, v == v.rounded() else {
            throw .invalid("instanceCount: expected a whole number in 0...\(Int(ReplicatorState.maximumInstanceCount)), got \(v)")
        }
        return v
    }
    public static let instanceDelay = row("instanceDelay", \.instanceDelay)
    public static let instanceTransform = row("instanceTransform", \.instanceTransform)
    public static let instanceColor = row("instanceColor", \.instanceColor) { c, _ throws(LayerKitError) in
        try checkUnitColor("instanceColor", c)
        return c
    }
    public static let instanceRedOffset = row("instanceRedOffset", \.instanceRedOffset)
    public static let instanceGreenOffset = row("instanceGreenOffset", \.instanceGreenOffset)
    public static let instanceBlueOffset = row("instanceBlueOffset", \.instanceBlueOffset)
    public static let instanceAlphaOffset = row("instanceAlphaOffset", \.instanceAlphaOffset)
    public static let preservesDepth = row("preservesDepth", \.preservesDepth, animatable: false)

    static let all: [AnyProperty] = [
        instanceCount.erased, instanceDelay.erased, instanceTransform.erased, instanceColor.erased,
        instanceRedOffset.erased, instanceGreenOffset.erased, instanceBlueOffset.erased, instanceAlphaOffset.erased,
        preservesDepth.erased,
    ]
    static let byKey: [String: AnyProperty] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
}
