/// Every stored property of a layer (S1.1) with its default. A value type, so
/// that a committed copy of the tree is a copy of these structs.
public struct LayerState: Sendable {
    public var bounds = Rect.zero
    public var position = Point.zero
    public var anchorPoint = Point(x: 0.5, y: 0.5)
    public var anchorPointZ = 0.0
    public var zPosition = 0.0
    public var transform = Transform3D.identity
    public var sublayerTransform = Transform3D.identity
    public var opacity = 1.0
    /// Whether opacity below 1 fades the layer and its sublayers as one picture (as on iOS 7 and later).
    public var allowsGroupOpacity = true
    public var hidden = false
    public var backgroundColor: Color? = nil
    public var borderColor = Color.black
    public var borderWidth = 0.0
    public var cornerRadius = 0.0
    public var masksToBounds = false
    public var doubleSided = true
    public var shadowColor = Color.black
    public var shadowOpacity = 0.0
    public var shadowOffset = Size(width: 0, height: -3)
    public var shadowRadius = 3.0
    public var shadowPath: Path? = nil
    public var contents: Image? = nil
    public var contentsRect = Rect.unit
    public var contentsCenter = Rect.unit
    public var contentsGravity = ContentsGravity.resize
    public var contentsScale = 1.0
    public var magnificationFilter = ContentsFilter.linear
    public var minificationFilter = ContentsFilter.linear
    public var minificationFilterBias = 0.0
    public var mask: Layer? = nil
    public var name: String? = nil
    /// A change of bounds size marks the layer for display (kept here, as a
    /// property, so that its key path reaches it as every other's does).
    public var needsDisplayOnBoundsChange = false
    public var timing = TimingState()
    /// A special kind's own properties (LayerKind.swift); nil for a plain layer.
    public var kindStorage: KindStorage? = nil

    public init() {}
}

/// The timing properties of a timing node (S4.1): layers and animations.
public struct TimingState: Equatable, Sendable {
    public var beginTime = 0.0
    public var duration = 0.0
    public var speed = 1.0
    public var timeOffset = 0.0
    public var repeatCount = 0.0
    public var repeatDuration = 0.0
    public var autoreverses = false
    public var fillMode = FillMode.removed
    public init() {}
}
