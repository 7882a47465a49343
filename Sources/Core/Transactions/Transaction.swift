import Glibc
import Synchronization

/// Transactions (S2): a per-thread stack of nested transactions. A change
/// with none open opens an implicit one, committed at the next run loop
/// iteration or by flush. Only the outermost commit hands the changes to
/// the render side, at once.
public enum Transaction {
    struct Frame {
        var duration: Double?
        var timingFunction: TimingFunction??
        var disableActions: Bool?
        var completion: CompletionGroup?
        var values: [String: Value] = [:]
        let implicit: Bool
        /// Tells an explicit transaction from the others (0 for implicit ones).
        var serial: UInt64 = 0
    }

    /// The properties the open transactions set (S2.3): the innermost
    /// frame that sets one decides it.
    struct Inherited {
        var duration = 0.25
        /// nil: none set, which means each action's own (the default curve).
        var timingFunction: TimingFunction?
        var disableActions = false
    }

    /// One thread's transactions and what they changed.
    final class ThreadState {
        var frames: [Frame] = [] {
            didSet {
                groupsForFrames = nil
                inherited = nil
            }
        }
        /// Every open frame's completion group, while the frames stay as they
        /// are: each animation added counts in all of them.
        var groupsForFrames: [CompletionGroup]?
        /// What the open frames say, while they stay as they are (read for
        /// every implicit animation: walking the frames copied each one).
        var inherited: Inherited?
        /// Layers changed since the last outermost commit, in order, once
        /// each (a layer's `transactionMark` says it is listed). Held
        /// weakly: a layer the program lets go of before the commit has
        /// nothing left to show, and goes at once (its sublayers are freed).
        var changed: [WeakLayer] = []
        /// The transaction an outermost commit is committing, while its
        /// display pass runs: a change its drawing makes joins the commit's
        /// list (taken by the same walk), takes that transaction's
        /// properties (disableActions, duration...) and counts in its
        /// completion, and opens no implicit transaction (one was left open,
        /// so the program's next explicit transactions nested in it and
        /// were not committed until a flush: first by the change itself,
        /// later by the implicit animation it ran, which the frames
        /// emptied by the commit no longer covered).
        var committing: Frame? {
            didSet {
                groupsForFrames = nil
                inherited = nil
            }
        }
        /// Displays in progress on this thread, one inside another's draw
        /// (Layer.display bounds it).
        var displayNesting = 0
        /// Names this thread's current list; a new one after each commit.
        var mark = Transaction.newMark()
        /// Layers marked with setNeedsLayout, laid out before the outermost commit.
        var needsLayout: [WeakLayer] = []
        /// Completion groups of transactions already closed, sealed at the outermost commit.
        var closedGroups: [CompletionGroup] = []
        /// Objects handed out at +0 with nothing else holding them, kept
        /// until the thread's transaction commits (lk_animation_as_action).
        var autoreleased: [Object] = []
        deinit {
            if !frames.isEmpty {
                writeToStandardError("layerkit: error: a thread ended with \(frames.count) transaction(s) open; their changes were not committed (S2.6)\n")
            }
        }
    }

    private static let perThread = ThreadLocal { ThreadState() }

    private static let marks = Atomic<UInt64>(1)
    static func newMark() -> UInt64 { marks.wrappingAdd(1, ordering: .relaxed).oldValue }

    static var current: ThreadState { perThread.value }

    // MARK: Begin, commit, flush

    public static func begin() {
        current.frames.append(Frame(implicit: false, serial: newMark()))
    }

    /// Commits the innermost explicit transaction (S2.1); an error when none is open (S2.6).
    public static func commit() throws(LayerKitError) {
        let state = current
        guard let index = state.frames.lastIndex(where: { !$0.implicit }) else {
            throw LayerKitError(.state, "lk_transaction_commit: no transaction is open (S2.6)")
        }
        // The layout pass runs inside the outermost transaction, so what the
        // layout callbacks change commits with it. A callback may itself
        // commit this transaction (then it is done) or begin others (S8.1).
        if index == 0 {
            let serial = state.frames[0].serial
            LayoutPass.run(state)
            guard let first = state.frames.first, first.serial == serial else { return }
        }
        // An implicit transaction opened inside an explicit one belongs to it.
        while state.frames.count > index + 1 { close(state.frames.removeLast(), in: state) }
        let committed = state.frames.removeLast()
        close(committed, in: state)
        if state.frames.isEmpty { commitToRenderSide(state, committing: committed) }
    }

    /// Commits the implicit transaction, if it is the only one open (S2.2).
    public static func flush() {
        let state = current
        defer { state.autoreleased.removeAll() }
        guard state.frames.count == 1, state.frames[0].implicit else { return }
        LayoutPass.run(state)
        guard state.frames.count == 1, state.frames[0].implicit else { return }
        let committed = state.frames.removeLast()
        close(committed, in: state)
        commitToRenderSide(state, committing: committed)
        RunLoop.current.settle()
    }

    /// Keeps `object` alive until this thread's transaction commits.
    public static func autorelease(_ object: Object) { current.autoreleased.append(object) }

    private static func close(_ frame: Frame, in state: ThreadState) {
        if let group = frame.completion { state.closedGroups.append(group) }
    }

    /// `committing`: the outermost transaction just closed, whose
    /// properties and completion the display pass's changes take.
    private static func commitToRenderSide(_ state: ThreadState, committing: Frame) {
        // The display pass, in the same walk that takes the layers to
        // publish: layers marked for display draw before the commit
        // publishes them (drawing may change more layers, appended to the
        // list, and taken by this walk too: indices, not an iterator).
        var layers: [Layer] = []
        layers.reserveCapacity(state.changed.count)
        var next = 0
        let outer = state.committing
        state.committing = committing
        while next < state.changed.count {
            // Read in place: copying a weak entry costs as much as loading it.
            let layer = state.changed.withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped[next].layer }
            next += 1
            guard let layer else { continue }
            if layer.needsDisplay { layer.display() }
            layers.append(layer)
        }
        // A completion group the drawing gave the committed transaction
        // (an animation it added, a completion it set) is sealed with the
        // others; close() took the one it had.
        if let group = state.committing?.completion, group !== committing.completion {
            state.closedGroups.append(group)
        }
        state.committing = outer
        state.changed = []
        state.mark = newMark()
        // A layer marked for display while this walk drew (by its own draw,
        // or another's after it was drawn) is drawn at the next commit, as
        // Core Animation redraws a layer marked again during display: here
        // it was already listed, so the mark was lost with the list.
        for layer in layers where layer.needsDisplay { recordChange(layer, in: state) }
        let groups = state.closedGroups
        state.closedGroups = []
        defer { state.autoreleased.removeAll() }
        RenderTree.shared.commit(layers, at: mediaTime())
        let runLoop = RunLoop.current
        for group in groups { group.seal(on: runLoop) }
    }

    // MARK: Recording changes

    /// Opens the thread's implicit transaction (S2.2), and tells its run
    /// loop there is work: a program polling lk_display_get_fd in its own
    /// loop then dispatches, which commits it (the fd stayed quiet, and its
    /// changes were never committed).
    private static func openImplicit(_ state: ThreadState) {
        state.frames.append(Frame(implicit: true))
        RunLoop.current.wake()
    }

    /// Called for every model change: opens an implicit transaction if needed.
    static func recordChange(_ layer: Layer) { recordChange(layer, in: current) }

    /// recordChange with the thread's state already at hand.
    static func recordChange(_ layer: Layer, in state: ThreadState) {
        if state.frames.isEmpty && state.committing == nil { openImplicit(state) }
        // Under the model lock. Two threads changing one layer may each list
        // it more than once; publishing a layer twice is harmless.
        if layer.transactionMark != state.mark {
            layer.transactionMark = state.mark
            state.changed.append(WeakLayer(layer))
        }
    }

    /// Marks a layer for the layout pass of this thread's next commit.
    static func recordNeedsLayout(_ layer: Layer) {
        let state = current
        if state.frames.isEmpty { openImplicit(state) }
        state.needsLayout.append(WeakLayer(layer))
    }

    /// Every open transaction with a completion waits for this animation.
    static func groupsForNewAnimation() -> [CompletionGroup] { groupsForNewAnimation(in: current) }

    static func groupsForNewAnimation(in state: ThreadState) -> [CompletionGroup] {
        if let groups = state.groupsForFrames {
            for group in groups { group.animationAdded() }
            return groups
        }
        if state.frames.isEmpty && state.committing == nil { openImplicit(state) }
        // Every open transaction counts it: a completion may still be set
        // on any of them before it commits. So does the one committing,
        // when a display pass's drawing adds it.
        var groups: [CompletionGroup] = []
        if state.committing != nil { groups.append(counting(&state.committing!)) }
        for i in state.frames.indices { groups.append(counting(&state.frames[i])) }
        state.groupsForFrames = groups
        return groups
    }

    /// The transaction's completion group (made when it has none yet), with
    /// one more animation counted in it.
    private static func counting(_ frame: inout Frame) -> CompletionGroup {
        let group = frame.completion ?? CompletionGroup()
        if frame.completion !== group { frame.completion = group }
        group.animationAdded()
        return group
    }

    // MARK: Properties (S2.3), inherited from enclosing transactions

    private static func lookup<T>(_ field: (Frame) -> T?) -> T? {
        let state = current
        for frame in state.frames.reversed() { if let v = field(frame) { return v } }
        // (beneath them, the transaction whose display pass is running)
        return state.committing.flatMap(field)
    }

    /// The thread's inherited properties, worked out once while its frames
    /// stay as they are.
    static func inherited(in state: ThreadState) -> Inherited {
        if let known = state.inherited { return known }
        var result = Inherited()
        var duration: Double?, timingFunction: TimingFunction??, disableActions: Bool?
        state.frames.withUnsafeBufferPointer { frames in
            // Read in place, innermost first.
            for i in frames.indices.reversed() {
                if duration == nil { duration = frames[i].duration }
                if timingFunction == nil { timingFunction = frames[i].timingFunction }
                if disableActions == nil { disableActions = frames[i].disableActions }
            }
        }
        if let committing = state.committing {
            // A display pass's drawing: beneath any transaction it opened,
            // the one committing (its changes join that commit).
            if duration == nil { duration = committing.duration }
            if timingFunction == nil { timingFunction = committing.timingFunction }
            if disableActions == nil { disableActions = committing.disableActions }
        }
        if let duration { result.duration = duration }
        if let timingFunction { result.timingFunction = timingFunction }
        if let disableActions { result.disableActions = disableActions }
        state.inherited = result
        return result
    }

    private static func modifyTop(_ change: (inout Frame) -> Void) {
        let state = current
        if state.frames.isEmpty, state.committing != nil {
            // Set by a display pass's drawing: the transaction committing.
            change(&state.committing!)
            return
        }
        if state.frames.isEmpty { openImplicit(state) }
        change(&state.frames[state.frames.count - 1])
    }

    public static var animationDuration: Double {
        get { inherited(in: current).duration }
        set { modifyTop { $0.duration = newValue } }
    }

    /// nil: none set, which means each action's own (the default curve).
    public static var animationTimingFunction: TimingFunction? {
        get { inherited(in: current).timingFunction }
        set { modifyTop { $0.timingFunction = .some(newValue) } }
    }

    public static var disableActions: Bool {
        get { inherited(in: current).disableActions }
        set { modifyTop { $0.disableActions = newValue } }
    }

    /// Sets the innermost transaction's completion; it waits for every
    /// animation added inside that transaction and its nested ones. Setting
    /// another keeps the first: both run, in that order (Core Animation runs
    /// a replaced completion block too; a callback set is never dropped).
    public static func setCompletion(_ completion: (() -> Void)?) {
        guard let completion else { return }
        modifyTop { frame in
            let group = frame.completion ?? CompletionGroup()
            group.completions.append(completion)
            frame.completion = group
        }
    }

    /// Core Animation's transaction keys (kCATransactionAnimationDuration
    /// and the others) name the properties above: a program ported from it
    /// that sets them by key gets what the typed calls do.
    enum Key {
        static let animationDuration = "animationDuration"
        static let animationTimingFunction = "animationTimingFunction"
        static let disableActions = "disableActions"
        static let completionBlock = "completionBlock"
    }

    /// A value by key (S2.3): the properties' keys read them (inherited), a
    /// named timing function as its name; other keys as set, innermost first.
    public static func value(forKey key: String) throws(LayerKitError) -> Value? {
        switch key {
        case Key.animationDuration: return .number(animationDuration)
        case Key.disableActions: return .bool(disableActions)
        case Key.animationTimingFunction:
            // none set: none (Core Animation's valueForKey: gives nil), as a
            // property key always reads back; it was "no value" (NOT_FOUND)
            guard let function = animationTimingFunction else { return Value.none }
            guard let named = TimingFunctionName.allCases.first(where: { TimingFunction.named($0) === function }) else {
                throw LayerKitError(.typeMismatch, "key: the transaction's timing function is not a named one; read it with lk_transaction_get_animation_timing_function")
            }
            return .string(named.name)
        case Key.completionBlock:
            throw LayerKitError(.typeMismatch, "key: the completion is a callback, not a value; lk_transaction_set_completion sets it")
        default: return lookup { $0.values[key] }
        }
    }

    /// Sets a value by key (S2.3): the properties' keys set them, checked as
    /// their own calls check (a timing function by name: "linear",
    /// "easeIn", ...); other keys hold any value.
    public static func setValue(_ value: Value, forKey key: String) throws(LayerKitError) {
        switch key {
        case Key.animationDuration:
            guard case .number(let seconds) = value else {
                throw LayerKitError(.typeMismatch, "value: \"animationDuration\" takes a number, got \(value.type)")
            }
            guard seconds.isFinite, seconds >= 0 else {
                throw LayerKitError(.invalidArgument, "value: \"animationDuration\" must be a finite duration >= 0 (got \(seconds))")
            }
            animationDuration = seconds
        case Key.disableActions:
            guard case .bool(let disable) = value else {
                throw LayerKitError(.typeMismatch, "value: \"disableActions\" takes a bool, got \(value.type)")
            }
            disableActions = disable
        case Key.animationTimingFunction:
            if case .none = value {
                animationTimingFunction = nil
                return
            }
            guard case .string(let name) = value, let named = TimingFunctionName(name: name) else {
                let names = TimingFunctionName.allCases.map { "\"\($0.name)\"" }.joined(separator: ", ")
                throw LayerKitError(.typeMismatch, "value: \"animationTimingFunction\" takes the name of a timing function (\(names)) or none; other curves go through lk_transaction_set_animation_timing_function")
            }
            animationTimingFunction = TimingFunction.named(named)
        case Key.completionBlock:
            throw LayerKitError(.typeMismatch, "key: the completion is a callback, not a value; lk_transaction_set_completion sets it")
        default:
            modifyTop { $0.values[key] = value }
        }
    }
}

/// A weak reference stored inline in an array (no allocation per entry).
struct WeakLayer {
    weak var layer: Layer?
    init(_ layer: Layer) { self.layer = layer }
}
