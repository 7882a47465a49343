import CSupport
import Glibc
import Synchronization

/// A layer as the render side has it: the state of the last commit and the
/// animations then attached. The render side never touches model layers.
final class RenderNode: @unchecked Sendable {
    let id: UInt64
    /// The state lives at a fixed address so the hot paths (evaluation,
    /// presentation values) read and write it in place, never by copy.
    let statePointer: UnsafeMutablePointer<LayerState>
    var state: LayerState {
        unsafeAddress { UnsafePointer(statePointer) }
        unsafeMutableAddress { statePointer }
    }
    var children: [RenderNode] = []
    /// The layer's sublayersVersion these children were built from.
    var syncedSublayersVersion = UInt64.max
    /// RenderTree.sync's mark for the children it keeps.
    var childStamp: UInt64 = 0
    weak var parent: RenderNode?
    /// The model layer, for presentation copies only (S5.1: built on the
    /// model side from the committed tree, under the lock); the render side
    /// never reads it. Weak: a released layer's node stays among its
    /// parent's children until the parent's next commit.
    weak var layer: Layer?
    var animations: [AnimationRecord] = [] {
        didSet { rebuildTracks() }
    }
    /// The animations as each frame reads them (NodeTrack.swift).
    var tracks: [NodeTrack] = []
    /// A frame applies a whole-transform track of `tracks` (tracksWriteFieldsOnly).
    private var hasTransformTracks = false
    /// Every track writes only its own field: a frame evaluates into
    /// `presentedPointer` in place of a whole copy of the state.
    private(set) var tracksWriteFieldsOnly = false
    /// The presented state of the last frame, kept between frames: equal to
    /// the model in every field no track writes. Stale after a commit.
    private var presentedPointer: UnsafeMutablePointer<LayerState>?
    private var presentedStale = true
    /// An animation changes zPosition: the drawing order follows it.
    var animatesZPosition = false
    /// The committed node of the layer's mask (S6.1), drawn in this node's
    /// space; its parent is this node, for its timing.
    var mask: RenderNode?
    /// S4.13: while a transition runs, the layer's appearance before it,
    /// frozen (presentation values at the commit, no animations).
    var transitionBefore: RenderNode?
    /// The running transition (also in `animations`, for its timing and events).
    var transition: AnimationRecord?
    /// What the layer's kind drew last (shape, text, gradient), for reuse.
    var content: ContentCache?
    /// The shadowPath's coverage when it is not a simple shape (S6.1), for reuse.
    var shadowCoverage: ShadowCoverage?
    /// An emitter layer's particle simulation (S7.4).
    var emitter: EmitterRender?

    /// Whether this node's own timing shifts or scales time (S4.2); counted
    /// in `timeShifters`, so that while no live node does, a node's local
    /// time is the media time without a walk up its ancestors.
    private var shiftsTime = false
    static let timeShifters = Atomic<Int>(0)

    init(id: UInt64, state: LayerState) {
        self.id = id
        statePointer = .allocate(capacity: 1)
        statePointer.initialize(to: RenderNode.renderable(state))
        noteTiming()
    }

    deinit {
        if shiftsTime { RenderNode.timeShifters.subtract(1, ordering: .relaxed) }
        statePointer.deinitialize(count: 1)
        statePointer.deallocate()
        dropPresented()
    }

    private func noteTiming() {
        let t = statePointer.pointee.timing
        let shifts = t.beginTime != 0 || t.speed != 1 || t.timeOffset != 0
        guard shifts != shiftsTime else { return }
        shiftsTime = shifts
        if shifts {
            RenderNode.timeShifters.add(1, ordering: .relaxed)
        } else {
            RenderNode.timeShifters.subtract(1, ordering: .relaxed)
        }
    }

    private func rebuildTracks() {
        var fieldsOnly = !animations.isEmpty
        // The same buffer when it is big enough: re-triggering replaces a
        // node's animations at every commit.
        tracks.removeAll(keepingCapacity: true)
        tracks.reserveCapacity(animations.count)
        for record in animations {
            tracks.append(NodeTrack(record))
            if tracks[tracks.count - 1].kind == .general { fieldsOnly = false }
        }
        tracksWriteFieldsOnly = fieldsOnly
        hasTransformTracks = fieldsOnly && tracks.contains { $0.transformTrack != nil }
        presentedStale = true
        if !tracksWriteFieldsOnly { dropPresented() }
    }

    private func dropPresented() {
        guard let p = presentedPointer else { return }
        p.deinitialize(count: 1)
        p.deallocate()
        presentedPointer = nil
    }

    /// The committed state changed: the kept presented state must be copied again.
    func stateChanged() {
        presentedStale = true
        noteTiming()
    }

    /// Asks for what a frame reads of this node (its state, its kept
    /// presented state, its tracks) ahead of the visit: a frame of many
    /// layers otherwise waits on memory at each one in turn.
    func prefetch() {
        layerkit_support_prefetch(statePointer, MemoryLayout<LayerState>.size)
        if let p = presentedPointer { layerkit_support_prefetch(p, MemoryLayout<LayerState>.size) }
        tracks.withUnsafeBufferPointer { t in
            if let base = t.baseAddress { layerkit_support_prefetch(base, t.count * MemoryLayout<NodeTrack>.stride) }
        }
    }

    /// The next step of `prefetch`, once the tracks are in: the whole
    /// transform tracks they point to.
    func prefetchTrackObjects() {
        guard hasTransformTracks else { return }
        tracks.withUnsafeBufferPointer { t in
            for track in t { track.transformTrack?._withUnsafeGuaranteedRef { $0.prefetch() } }
        }
    }

    /// The state to evaluate this frame's tracks into (tracksWriteFieldsOnly):
    /// the kept presented state with every tracked field reset to the model.
    func presentedForTracks() -> UnsafeMutablePointer<LayerState> {
        let p: UnsafeMutablePointer<LayerState>
        if let kept = presentedPointer {
            p = kept
            if presentedStale { p.pointee = statePointer.pointee }
        } else {
            p = .allocate(capacity: 1)
            p.initialize(to: statePointer.pointee)
            presentedPointer = p
        }
        if !presentedStale {
            // The tracks' fields hold last frame's values: back to the model
            // (plain doubles, copied as bytes). Tracks are read in place:
            // each is a few hundred bytes.
            let to = UnsafeMutableRawPointer(p), from = UnsafeRawPointer(statePointer)
            tracks.withUnsafeBufferPointer { tracks in
                for i in tracks.indices {
                    let offset = tracks[i].offset
                    to.advanced(by: offset).copyMemory(from: from.advanced(by: offset),
                                                       byteCount: tracks[i].lanes * MemoryLayout<Double>.stride)
                }
            }
        }
        presentedStale = false
        return p
    }

    /// Model objects other than immutable images and paths stay on the
    /// model side: a mask travels as its own node (drawn by the content work).
    static func renderable(_ state: LayerState) -> LayerState {
        var s = state
        s.mask = nil
        return s
    }

    /// A detached copy of a model subtree, for drawing a tree that was never
    /// committed (tests, snapshots).
    static func snapshot(of layer: Layer) -> RenderNode {
        let node = RenderNode(id: layer.id, state: layer.state)
        node.children = layer.sublayers.map { child in
            let c = snapshot(of: child)
            c.parent = node
            return c
        }
        node.mask = layer.state.mask.map { mask in
            let m = snapshot(of: mask)
            m.parent = node
            return m
        }
        return node
    }
}

/// The committed copy of every layer tree (S5.2). Commits replace the
/// changed layers' nodes at once under the lock, so the render side never
/// sees half a transaction (S2.1).
public final class RenderTree: @unchecked Sendable {
    public static let shared = RenderTree()

    private var mutex = pthread_mutex_t()
    private var nodes: [UInt64: RenderNode] = [:]
    private var observers: [UInt64: () -> Void] = [:]
    private var nextObserver: UInt64 = 0

    /// The thread holding the lock (0: none), and the layers that died
    /// while it did: a commit or a frame can release the last reference to
    /// a layer (an animation's value holding one, say), whose death must
    /// not take the lock again.
    private let owner = Atomic<UInt>(0)
    private var deaths: [UInt64] = []
    /// The animations of those layers, stopped once the lock is let go.
    private var orphans: [AnimationRecord] = []

    private init() { pthread_mutex_init(&mutex, nil) }

    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(&mutex)
        owner.store(UInt(pthread_self()), ordering: .relaxed)
        defer {
            // Forgetting a node can release more layers: they append here.
            while let id = deaths.popLast() { _ = nodes.removeValue(forKey: id) }
            // (Every lock passes here: nothing is moved unless a layer died.)
            var stopping: [AnimationRecord] = []
            if !orphans.isEmpty { swap(&stopping, &orphans) }
            owner.store(0, ordering: .relaxed)
            pthread_mutex_unlock(&mutex)
            for record in stopping { AnimationEvents.stopEarly(record) }
        }
        return try body()
    }

    /// Called after every commit (a display's render loop wakes up).
    func addObserver(_ observer: @escaping () -> Void) -> UInt64 {
        withLock {
            nextObserver += 1
            observers[nextObserver] = observer
            return nextObserver
        }
    }

    func removeObserver(_ token: UInt64) { withLock { _ = observers.removeValue(forKey: token) } }

    func node(_ id: UInt64) -> RenderNode? { nodes[id] }

    public func isCommitted(_ layer: Layer) -> Bool { withLock { layer.renderNode != nil } }

    /// Publishes the state of `layers` (model lock held, on the committing thread).
    func commit(_ layers: [Layer], at time: Double) {
        let toNotify: [() -> Void] = withLock {
            // S4.13: a transition added in this transaction shows the layer
            // as it was before it: freeze that before anything changes.
            var befores: [(Layer, AnimationRecord, RenderNode?)] = []
            for layer in layers where !layer.isPresentationCopy {
                guard let record = layer.animationRecords.last(where: {
                    !$0.beginResolved && $0.animation.animationKind == .transition
                }) else { continue }
                befores.append((layer, record, layer.renderNode.map { frozenCopy(of: $0, at: time) }))
            }
            for (i, layer) in layers.enumerated() where !layer.isPresentationCopy {
                // A commit of thousands of layers waits on memory at each
                // one in turn: ask for the next one's model and node ahead.
                if i + 1 < layers.count { RenderTree.prefetch(layers[i + 1]) }
                sync(ensureNode(layer, time), with: layer, commitTime: time)
            }
            for (layer, record, before) in befores {
                guard let node = layer.renderNode else { continue }
                node.transition = record
                // A layer that was not there before appears from nothing.
                node.transitionBefore = before ?? RenderNode(id: layer.id, state: LayerState.hiddenPlaceholder)
            }
            return Array(observers.values)
        }
        for notify in toNotify { notify() }
    }

    private static func prefetch(_ layer: Layer) {
        layerkit_support_prefetch(Unmanaged.passUnretained(layer).toOpaque(), 64 + MemoryLayout<LayerState>.size)
        if let node = layer.renderNode { layerkit_support_prefetch(node.statePointer, MemoryLayout<LayerState>.size) }
    }

    private func ensureNode(_ layer: Layer, _ time: Double) -> RenderNode {
        if let node = layer.renderNode { return node }
        let node = RenderNode(id: layer.id, state: layer.state)
        nodes[layer.id] = node
        node.layer = layer
        layer.renderNode = node
        sync(node, with: layer, commitTime: time)
        return node
    }

    private static func same(_ a: [AnimationRecord], _ b: [AnimationRecord]) -> Bool {
        guard a.count == b.count else { return false }
        for i in a.indices where a[i] !== b[i] { return false }
        return true
    }

    /// Stamps the children kept by one sync, to find those it dropped in one pass.
    private var childStamp: UInt64 = 0

    /// Makes `c` a child (or the mask) of `node` on the render side: taken
    /// from the parent it had, so a node is under one parent only; false,
    /// changing nothing, when `c` is `node` or above it. A commit publishes
    /// the layers its thread changed as the model has them now, and another
    /// thread's transaction still open may have moved some of them: its
    /// moves then reach the render side in part (S2.1 across threads), and
    /// unchecked, such parts closed loops (a layer drawn inside itself until
    /// the stack overflowed, S8.1). The skipped link comes with the other
    /// thread's commit, which publishes the layers it moved.
    private static func adopt(_ c: RenderNode, under node: RenderNode) -> Bool {
        if c.parent === node { return true }
        var above: RenderNode? = node
        while let n = above {
            if n === c { return false }
            above = n.parent
        }
        if let old = c.parent {
            if old.mask === c { old.mask = nil }
            if let i = old.children.firstIndex(where: { $0 === c }) { old.children.remove(at: i) }
        }
        c.parent = node
        return true
    }

    private func sync(_ node: RenderNode, with layer: Layer, commitTime time: Double) {
        node.statePointer.pointee = layer.state
        node.statePointer.pointee.mask = nil  // RenderNode.renderable
        node.stateChanged()
        if node.syncedSublayersVersion != layer.sublayersVersion {
            node.syncedSublayersVersion = layer.sublayersVersion
            childStamp &+= 1
            let stamp = childStamp
            var children: [RenderNode] = []
            children.reserveCapacity(layer.sublayers.count)
            for child in layer.sublayers {
                let c = ensureNode(child, time)
                guard RenderTree.adopt(c, under: node) else {
                    node.syncedSublayersVersion = UInt64.max   // (taken at a later commit)
                    continue
                }
                c.childStamp = stamp
                children.append(c)
            }
            for old in node.children where old.parent === node && old.childStamp != stamp {
                old.parent = nil
            }
            node.children = children
        }
        let oldMask = node.mask
        if let mask = layer.state.mask {
            let m = ensureNode(mask, time)
            node.mask = RenderTree.adopt(m, under: node) ? m : nil
        } else {
            node.mask = nil
        }
        // A mask given up keeps no parent here (as a dropped child): the
        // layer may since have become this one's superlayer, and a stale
        // link would make the timing chain a cycle.
        if let oldMask, oldMask !== node.mask, oldMask.parent === node { oldMask.parent = nil }
        var commitLocalTime: Double?
        for record in layer.animationRecords where !record.beginResolved {
            // S4.3: beginTime 0 means the commit time, in the layer's own time.
            if record.animation.timing.beginTime == 0 {
                let local = commitLocalTime ?? layer.localTime(forMediaTime: time)
                commitLocalTime = local
                record.animation.timing.beginTime = local
            }
            record.beginResolved = true
        }
        if layer.state.layerKind == .emitter {
            let emitter = node.emitter ?? EmitterRender()
            node.emitter = emitter
            emitter.commit(cells: layer.state.emitter.cells, configuration: layer.state.emitter.configuration,
                           at: layer.localTime(forMediaTime: time))
        }
        // The same records (a change of anything else): the tracks stand.
        if !RenderTree.same(node.animations, layer.animationRecords) { node.animations = layer.animationRecords }
        node.animatesZPosition = node.animations.contains { $0.animates(LayerProperties.zPosition.key) }
        if let running = node.transition, !node.animations.contains(where: { $0 === running }) {
            node.transition = nil
            node.transitionBefore = nil
        }
    }

    /// The node's subtree as it shows at `time`, frozen: presentation
    /// values, no animations (the "before" of a transition, S4.13).
    private func frozenCopy(of node: RenderNode, at time: Double) -> RenderNode {
        let copy = RenderNode(id: node.id, state: node.state)
        if !node.animations.isEmpty {
            let local = RenderTree.localTime(of: node, at: time)
            _ = AnimationEvaluator.apply(node.animations, to: copy.statePointer, layerTime: local,
                                         model: node.statePointer, events: nil)
            copy.stateChanged()
        }
        copy.mask = node.mask.map { m in
            let c = frozenCopy(of: m, at: time)
            c.parent = copy
            return c
        }
        copy.children = node.children.map { child in
            let c = frozenCopy(of: child, at: time)
            c.parent = copy
            return c
        }
        return copy
    }

    /// The presentation value of a whole number, point, size or rect
    /// property whose animations are all inline tracks, computed on the
    /// field alone (re-triggering thousands of implicit animations asks this
    /// for each); nil when another path must answer.
    static func inlinePresentedValue(of node: RenderNode, property: AnyProperty, at time: Double) -> Value? {
        guard let slot = property.slot, let lanes = inlinePresentedLanes(of: node, slot: slot, at: time) else { return nil }
        return slot.value(lanes: lanes)
    }

    /// The same, as the field's lanes (a built-in animation's track keeps
    /// its start so, without a Value in between).
    static func inlinePresentedLanes(of node: RenderNode, slot: FieldSlot, at time: Double) -> SIMD4<Double>? {
        guard slot.lanes <= 4 else { return nil }
        let offset = slot.offset
        let model = UnsafeRawPointer(node.statePointer).advanced(by: offset).assumingMemoryBound(to: Double.self)
        var field = SIMD4<Double>()
        for i in 0..<slot.lanes { field[i] = model[i] }
        let answered = withUnsafeMutableBytes(of: &field) { bytes in
            let f = bytes.baseAddress!.assumingMemoryBound(to: Double.self)
            return applyPresentedTracks(of: node, offset: offset, at: time, accepting: { $0.pointee.kind == .inline }) {
                track, eased, iteration in
                track.pointee.applyInline(eased: eased, iteration: iteration, field: f, modelField: model)
            }
        }
        return answered ? field : nil
    }

    /// The presented transform from the node's tracks when each one that
    /// writes it is a basic whole-transform track (the implicit animation
    /// of `transform`): through the tracks' kept decompositions, as a frame
    /// draws it. Re-triggering such an animation asks for its start here;
    /// the Value path decomposed both ends at every call. Nil when another
    /// path must answer.
    static func trackedTransform(of node: RenderNode, at time: Double) -> Transform3D? {
        guard let offset = MemoryLayout<LayerState>.offset(of: \LayerState.transform) else { return nil }
        let model = UnsafeRawPointer(node.statePointer).advanced(by: offset).assumingMemoryBound(to: Transform3D.self)
        var value = model.pointee
        let answered = withUnsafeMutablePointer(to: &value) { base in
            applyPresentedTracks(of: node, offset: offset, at: time,
                                 accepting: { $0.pointee.basic && $0.pointee.transformTrack != nil }) { track, eased, _ in
                track.pointee.transformTrack?._withUnsafeGuaranteedRef { $0.apply(eased: eased, to: base, model: model) }
            }
        }
        return answered ? value : nil
    }

    /// The tracks of the node's field at `offset`, in order, as they show
    /// at `time` (each with its eased progress and iteration; those with no
    /// effect skipped), when every one is `accepting`'s kind and the node's
    /// tracks each write only their field; false when another path must
    /// answer. Tracks are read in place: each is a few hundred bytes.
    private static func applyPresentedTracks(of node: RenderNode, offset: Int, at time: Double,
                                             accepting: (UnsafePointer<NodeTrack>) -> Bool,
                                             _ apply: (UnsafePointer<NodeTrack>, Double, Int) -> Void) -> Bool {
        guard node.tracksWriteFieldsOnly || node.animations.isEmpty else { return false }
        return node.tracks.withUnsafeBufferPointer { tracks in
            guard let first = tracks.baseAddress else { return true }
            var animated = false
            for i in tracks.indices where tracks[i].offset == offset {
                if !accepting(first + i) { return false }
                animated = true
            }
            guard animated else { return true }
            let local = localTime(of: node, at: time)
            for i in tracks.indices where tracks[i].offset == offset {
                guard let (progress, iteration) = tracks[i].presentedProgress(layerTime: local) else { continue }
                apply(first + i, tracks[i].eased(progress), iteration)
            }
            return true
        }
    }

    /// A layer died: forget its node (its superlayer's next commit drops
    /// it too) and stop the animations it still had (stopEarly takes the lock).
    func layerDied(_ id: UInt64, animations: [AnimationRecord] = []) {
        if owner.load(ordering: .relaxed) == UInt(pthread_self()) {
            // This thread holds the lock: withLock does both on the way out.
            deaths.append(id)
            orphans.append(contentsOf: animations)
            return
        }
        withLock { _ = nodes.removeValue(forKey: id) }
        for record in animations { AnimationEvents.stopEarly(record) }
    }

    /// The node's local time at media time `time` (S4.2), through its ancestors.
    static func localTime(of node: RenderNode, at time: Double) -> Double {
        // No live node shifts time (the usual tree): every local time is the
        // media time. Nodes change their timing under the lock this runs in.
        if RenderNode.timeShifters.load(ordering: .relaxed) == 0 { return time }
        let parentTime = node.parent.map { localTime(of: $0, at: time) } ?? time
        return TimingModel.localTime(parentTime, node.state.timing)
    }

    /// S5.1: a read-only copy of the layer's subtree as it shows at `time`:
    /// the committed tree (not the model's uncommitted changes), each layer
    /// with its animations applied, its mask a copy of the mask's
    /// presentation. The copy's top keeps where its superlayer (or mask
    /// owner) puts it, for hit testing and conversion. Nil if never committed.
    func presentationCopy(of layer: Layer, at time: Double) -> Layer? {
        withLock {
            guard let node = layer.renderNode else { return nil }
            guard let parent = node.parent else { return presentedCopy(node, model: layer, parentTime: time) }
            let (placement, parentTime) = presentedPlacement(under: parent, of: node, at: time)
            let copy = presentedCopy(node, model: layer, parentTime: parentTime)
            copy.presentedPlacement = placement
            return copy
        }
    }

    /// The node's state with its animations applied at `localTime` (no
    /// events), its mask link dropped.
    static func presentedState(_ node: RenderNode, localTime: Double) -> LayerState {
        var state = node.state
        withUnsafeMutablePointer(to: &state) { presented in
            _ = AnimationEvaluator.apply(node.animations, to: presented, layerTime: localTime, model: node.statePointer,
                                         events: nil)
        }
        state.mask = nil
        if state.layerKind == .replicator {
            // S7.5: instanceCount is a whole number (NSInteger in Core
            // Animation): presented as drawn, so its key path reads what the
            // typed getter and the renderer take (it read 4.6 where they took 4).
            state.replicator.instanceCount = Double(state.replicator.drawnInstanceCount)
        }
        return state
    }

    private func presentedCopy(_ node: RenderNode, model: Layer, parentTime: Double) -> Layer {
        let local = TimingModel.localTime(parentTime, node.state.timing)
        let copy = Layer(presentationOf: model, state: RenderTree.presentedState(node, localTime: local))
        if let mask = node.mask, let maskModel = mask.layer {
            let maskCopy = presentedCopy(mask, model: maskModel, parentTime: local)
            maskCopy.maskOwner = copy
            copy.state.mask = maskCopy
        }
        var sublayers: [Layer] = []
        sublayers.reserveCapacity(node.children.count)
        for child in node.children {
            guard let childModel = child.layer else { continue }   // released, not yet committed
            let c = presentedCopy(child, model: childModel, parentTime: local)
            c.superlayer = copy
            sublayers.append(c)
        }
        copy.sublayers = sublayers
        return copy
    }

    /// Where `parent` (the superlayer, or the mask owner, of `node`) places
    /// its sublayers at `time`, as presented: its sublayerTransform and its
    /// map to the root's space; and `parent`'s local time, worked out on the
    /// way down (the copy starts from it).
    private func presentedPlacement(under parent: RenderNode, of node: RenderNode,
                                    at time: Double) -> (PresentedPlacement, parentTime: Double) {
        var chain: [RenderNode] = []   // the root first, `parent` last
        var n: RenderNode? = parent
        while let current = n { chain.append(current); n = current.parent }
        chain.reverse()
        var states: [LayerState] = []
        var local = time
        for current in chain {
            local = TimingModel.localTime(local, current.state.timing)
            states.append(RenderTree.presentedState(current, localTime: local))
        }
        // Each level's map into the one above (through that one's
        // sublayerTransform, unless it is that one's mask), up to the root.
        var toRoot = Transform3D.identity
        for k in chain.indices.reversed() {
            let above = k == 0 || chain[k - 1].mask === chain[k] ? nil : states[k - 1].sublayerTransformAboutAnchor
            toRoot = toRoot.concatenating(states[k].transformToSuperlayer(through: above))
        }
        let placement = PresentedPlacement(sublayerTransform: parent.mask === node ? nil
                                               : states.last?.sublayerTransformAboutAnchor,
                                           superlayerToRoot: toRoot)
        return (placement, local)
    }

    /// `inlinePresentedLanes` for the layer's node (nil when the layer was
    /// never committed or another path must answer: presentationValue),
    /// then, when there are lanes, `replaced` marked stopped
    /// (AnimationEvents.markStopped's answer beside them), under one lock:
    /// re-triggering an implicit animation does both for each layer.
    func presentedLanes(of layer: Layer, slot: FieldSlot, at time: Double,
                        stopping replaced: AnimationRecord?) -> (SIMD4<Double>, Bool??)? {
        withLock {
            guard let node = layer.renderNode,
                  let lanes = RenderTree.inlinePresentedLanes(of: node, slot: slot, at: time) else { return nil }
            return (lanes, replaced.map { AnimationEvents.markStopped($0) })
        }
    }

    /// The presentation value of one key path (resolved by the caller)
    /// just before a change (S3.3): the committed value with the animations
    /// of that property applied, without copying the whole state.
    func presentationValue(of layer: Layer, property: AnyProperty, subpath: [Substring], keyPath: String,
                           at time: Double) -> Value? {
        withLock {
            guard let node = layer.renderNode else { return nil }
            let model = UnsafePointer(node.statePointer)
            if subpath.isEmpty, let value = RenderTree.inlinePresentedValue(of: node, property: property, at: time) {
                return value
            }
            if subpath.isEmpty, property.key == LayerProperties.transform.key,
               let transform = RenderTree.trackedTransform(of: node, at: time) {
                return .transform(transform)
            }
            let relevant: (AnimationRecord) -> Bool = {
                $0.animates(property.key) || (property.key == LayerProperties.transform.key && $0.turnsLayer)
            }
            var value: Value
            if node.animations.contains(where: relevant) {
                value = AnimationEvaluator.presentedValue(of: property, node.animations.filter(relevant),
                                                          layerTime: RenderTree.localTime(of: node, at: time), model: model)
            } else {
                value = property.read(model)
            }
            if subpath.isEmpty { return value }
            return try? KeyPathParts.component(of: value, path: subpath, keyPath: keyPath)
        }
    }

}
