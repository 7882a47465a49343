import CLayerKit

/// S4.13: a layer under a transition is drawn twice, its frozen "before"
/// (captured at the commit that added the transition) and its live self,
/// each placed and faded as the transition's type says.
extension DisplayListBuilder {
    /// The transition's progress at the layer's local time, nil when it
    /// shows nothing (not begun and not filling backwards, or over).
    static func transitionProgress(_ record: AnimationRecord, layerTime: Double) -> Double? {
        let animation = record.animation
        let evaluation = TimingModel.evaluate(animation.timing, parentTime: layerTime)
        if animation.removedOnCompletion && evaluation.phase == .after { return nil }   // (as AnimationEvaluator.apply)
        guard let progress = evaluation.progress else { return nil }
        return animation.transition.progress(at: animation.timingFunction?.evaluate(progress) ?? progress)
    }

    /// S4.13: the frozen "before" and the live layer, moved and faded by the
    /// transition. A fade is an exact dissolve, old x (1 - p) + new x p: both
    /// are added into one group, which then goes over what lies below.
    mutating func drawTransition(_ t: TransitionParameters, progress p: Double, before: RenderNode,
                                 node: RenderNode, _ s: UnsafeMutablePointer<LayerState>, parent: Placement,
                                 parentOpacity: Double, parentTime: Double, time: Double,
                                 events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?) {
        let place = t.placement(at: p, size: s.pointee.bounds.size)
        let fade = t.type == .fade
        if fade { beginGroup(opacity: 1) }
        for old in t.oldOnTop ? [false, true] : [true, false] {
            let part = old ? place.old : place.new
            if fade {
                guard part.opacity > 0 else { continue }
                beginGroup(opacity: part.opacity, flags: LK_DL_FLAG_BLEND_ADD.rawValue)
            }
            if old {
                let beforeTime = TimingModel.localTime(parentTime, before.state.timing)
                visit(before, before.statePointer, parent: parent, parentOpacity: parentOpacity, time: beforeTime,
                      events: nil, shift: (part.dx, part.dy))
            } else {
                visit(node, s, parent: parent, parentOpacity: parentOpacity, time: time, events: events,
                      shift: (part.dx, part.dy))
            }
            if fade { endGroup() }
        }
        if fade { endGroup() }
    }
}
