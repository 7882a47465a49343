/// An animation added to a layer, as the model and the render side both
/// see it: the added copy, where its callbacks go, and whether its start and
/// stop were reported (exactly one stop per start, S4.6).
final class AnimationRecord: @unchecked Sendable {
    let key: String
    /// The copy that was added (S4.3). Its duration is resolved when added,
    /// its beginTime at the commit that publishes it.
    let animation: Animation
    /// The key path's presentation value when the animation was added: the
    /// start of "to only", "by only" and "none" animations (S4.8).
    let previousValue: Value?
    /// The run loop of the thread that added it (S4.6).
    let runLoop: RunLoop
    let groups: [CompletionGroup]
    /// The key path, resolved once: its property row and the rest.
    let property: AnyProperty
    let subpath: [Substring]
    /// The unboxed form, for whole number/point/size/rect properties.
    let fastTrack: FastTrack?
    /// Model side: beginTime already made absolute at a commit.
    var beginResolved = false
    // Render side, under the render tree's lock:
    var started = false
    var stopped = false
    /// Model side: removed from its layer (replaced, removed, or finished).
    var detached = false
    /// The layer it was added to (model side only).
    weak var layer: Layer?

    init(key: String, animation: Animation, previousValue: Value?, runLoop: RunLoop, groups: [CompletionGroup],
         property: AnyProperty, subpath: [Substring]) {
        self.property = property
        self.subpath = subpath
        fastTrack = FastTrack.make(key: property.key, subpath: subpath, animation: animation, previous: previousValue)
        self.key = key
        self.animation = animation
        self.previousValue = previousValue
        self.runLoop = runLoop
        self.groups = groups
    }
}
