/// Transitions (S4.13): the layer's rendered appearance (with sublayers)
/// before a change, animated against its appearance after it. The render
/// side keeps the "before" as a frozen copy of the layer's render subtree,
/// taken at the commit that publishes the transition.
public enum TransitionType: Sendable, Equatable {
    /// the old appearance dissolves into the new
    case fade
    /// the new appearance slides in over the old
    case moveIn
    /// the new appearance slides in and pushes the old out
    case push
    /// the old appearance slides out, uncovering the new
    case reveal
}

/// The side the motion starts from (the new content of a moveIn from the
/// right enters at the right edge and moves left).
public enum TransitionSubtype: Sendable, Equatable {
    case fromRight, fromLeft, fromTop, fromBottom

    /// The unit direction the content moves in, in the layer's space (y down).
    var motion: (dx: Double, dy: Double) {
        switch self {
        case .fromRight: (-1, 0)
        case .fromLeft: (1, 0)
        case .fromTop: (0, 1)
        case .fromBottom: (0, -1)
        }
    }
}

public struct TransitionParameters: Sendable, Equatable {
    public var type: TransitionType = .fade
    /// Core Animation's default subtype is nil, which moves as from the left.
    public var subtype: TransitionSubtype = .fromLeft
    /// The part of the transition shown: progress runs from start to end.
    public var startProgress = 0.0
    public var endProgress = 1.0

    public init() {}

    func validate(_ name: String) throws(LayerKitError) {
        guard startProgress >= 0, startProgress <= 1 else {
            throw LayerKitError(.invalidArgument, "\(name): startProgress \(startProgress) is outside 0...1")
        }
        guard endProgress >= 0, endProgress <= 1 else {
            throw LayerKitError(.invalidArgument, "\(name): endProgress \(endProgress) is outside 0...1")
        }
        guard startProgress <= endProgress else {
            throw LayerKitError(.invalidArgument,
                                "\(name): startProgress \(startProgress) is after endProgress \(endProgress)")
        }
    }

    /// The transition's progress at the animation's (eased) progress.
    func progress(at t: Double) -> Double { startProgress + (endProgress - startProgress) * t }

    /// Where the old and new appearances are drawn at progress p: offsets
    /// in the layer's space for a layer of `size`, and their opacities.
    func placement(at p: Double, size: Size) -> (old: (dx: Double, dy: Double, opacity: Double),
                                                  new: (dx: Double, dy: Double, opacity: Double)) {
        let m = subtype.motion
        let w = size.width, h = size.height
        // The new content starts one layer-size back along the motion.
        let enter = (dx: -m.dx * w * (1 - p), dy: -m.dy * h * (1 - p))
        let leave = (dx: m.dx * w * p, dy: m.dy * h * p)
        switch type {
        case .fade: return ((0, 0, 1 - p), (0, 0, p))
        case .moveIn: return ((0, 0, 1), (enter.dx, enter.dy, 1))
        case .push: return ((leave.dx, leave.dy, 1), (enter.dx, enter.dy, 1))
        case .reveal: return ((leave.dx, leave.dy, 1), (0, 0, 1))
        }
    }

    /// Which appearance is drawn on top: the one that moves over the other.
    var oldOnTop: Bool { type == .reveal }
}

extension LayerState {
    /// What a layer that was not shown before a transition looked like: nothing.
    static var hiddenPlaceholder: LayerState {
        var s = LayerState()
        s.hidden = true
        return s
    }
}
