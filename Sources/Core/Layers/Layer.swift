import Synchronization

/// A layer of the model tree: what the program sets (S5.1). Its stored
/// properties live in `state`; every change goes through `set`, which
/// validates by the property table and ignores changes to the same value.
public class Layer: Object, @unchecked Sendable {
    public final internal(set) var state = LayerState()
    public final internal(set) var sublayers: [Layer] = [] {
        didSet { sublayersVersion &+= 1 }
    }
    /// Bumped when `sublayers` changes: a commit rebuilds the render node's
    /// children only then.
    final var sublayersVersion: UInt64 = 0
    /// The transaction list this layer is on (Transaction.recordChange).
    final var transactionMark: UInt64 = 0
    /// The render side's node for this layer; read and written only under
    /// the render tree's lock.
    final var renderNode: RenderNode?
    /// The superlayer retains this layer, so while it is set it is alive; it
    /// clears the reference when it lets go. Unowned-unsafe avoids a weak
    /// reference's side allocation on every layer.
    public internal(set) unowned(unsafe) var superlayer: Layer?
    /// The layer whose mask this layer is, if any (same lifetime rule).
    public internal(set) unowned(unsafe) var maskOwner: Layer?
    /// Extra values stored by the program (S1.6).
    public private(set) var userValues: [String: Value] = [:]
    /// Bumped on every change to this layer; damage tracking compares it.
    public private(set) var changeCount: UInt64 = 0
    /// Unique for the process's life: the render side's name for this layer.
    public let id: UInt64
    /// Animations in the order added (S4.14).
    final var animationRecords: [AnimationRecord] = []
    /// The actions dictionary and the style's (S3.1 steps 2 and 3).
    public internal(set) var actions: [String: Action] = [:]
    public internal(set) var styleActions: [String: Action] = [:]
    public var delegate: LayerDelegate?
    /// Marked for the layout pass (setNeedsLayout).
    public internal(set) var needsLayout = false
    /// Marked for display: drawn by the delegate before the next commit.
    public internal(set) var needsDisplay = false
    /// A change of bounds size marks the layer for display.
    public var needsDisplayOnBoundsChange: Bool {
        get { state.needsDisplayOnBoundsChange }
        set { state.needsDisplayOnBoundsChange = newValue }
    }
    /// A presentation copy (S5.1) is read-only and names its model layer.
    public private(set) var modelLayer: Layer?
    /// The top of a presentation copy: where its model's superlayer (or mask
    /// owner) placed it, as presented (the copy has no superlayer).
    final var presentedPlacement: PresentedPlacement?
    public var isPresentationCopy: Bool { modelLayer != nil }

    private static let nextID = Atomic<UInt64>(1)

    public init() {
        id = Layer.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        super.init(kind: .layer)
    }

    /// A layer of a special kind (S7), its properties at their defaults.
    public convenience init(layerKind: LayerKind) {
        self.init()
        state.kindStorage = layerKind.makeState().map(KindStorage.init)
        tileStore?.owner = self
    }

    /// A read-only copy of `model` showing `state` (S5.1); its sublayers and
    /// mask are set by RenderTree.presentationCopy.
    init(presentationOf model: Layer, state: LayerState) {
        id = Layer.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        modelLayer = model
        super.init(kind: .layer)
        self.state = state
    }

    deinit {
        for sublayer in sublayers where sublayer.superlayer === self { sublayer.superlayer = nil }
        // A presentation copy shows its model's mask without owning it.
        if let mask = state.mask, mask.maskOwner === self { mask.maskOwner = nil }
        if modelLayer == nil {
            // Its animations go with it, as if removed (S4.6, S2.4): their
            // delegates hear did_stop(not finished) and their transactions
            // stop waiting for them.
            let running = animationRecords.filter { !$0.detached }
            for record in running { record.detached = true }
            RenderTree.shared.layerDied(id, animations: running)
        }
    }

    /// `argument`: the C argument the layer was passed as, for the message.
    public func checkWritable(_ argument: String = "layer") throws(LayerKitError) {
        if modelLayer != nil {
            throw LayerKitError(.state, "\(argument): a presentation layer is read-only; change its model layer")
        }
    }

    /// Records a change for the commit (S2).
    func changed() {
        changeCount &+= 1
        Transaction.recordChange(self)
    }

    /// changed() with the thread's transaction state already at hand.
    func changed(in state: Transaction.ThreadState) {
        changeCount &+= 1
        Transaction.recordChange(self, in: state)
    }

    // MARK: Properties

    /// Sets a property through its table row: validates, stores, records the change.
    @_specialize(where T == Double)
    @_specialize(where T == Point)
    @_specialize(where T == Size)
    @_specialize(where T == Rect)
    @_specialize(where T == Transform3D)
    @_specialize(where T == Bool)
    public func set<T>(_ property: Property<T>, _ newValue: T) throws(LayerKitError) {
        try checkWritable()
        try checkKind(property.kind, property.key)
        let value = try property.validated(newValue) { state }
        let sizeBefore = state.bounds.size
        if let offset = property.offset {
            let stored = withUnsafeMutablePointer(to: &state) { state in
                let field = UnsafeMutableRawPointer(state).advanced(by: offset).assumingMemoryBound(to: T.self)
                guard field.pointee != value else { return false }
                field.pointee = value
                return true
            }
            guard stored else { return } // S3.6: no change, no action
        } else {
            guard state[keyPath: property.keyPath] != value else { return } // S3.6: no change, no action
            state[keyPath: property.keyPath] = value
        }
        if needsDisplayOnBoundsChange && state.bounds.size != sizeBefore { needsDisplay = true }
        // The thread's transaction state, looked up once for the change and its action.
        let transaction = Transaction.current
        changed(in: transaction)
        if state.bounds.size != sizeBefore { setNeedsLayout() }
        if property.effect != .timing {
            runAction(forKey: property.key, animatable: property.animatable,
                      row: property.offset.flatMap { LayerProperties.row(atOffset: $0, key: property.key) },
                      in: transaction)
        }
        // Core Animation's onOrderIn is also "the action taken when ... the
        // layer is no longer set as hidden", and onOrderOut when it is
        // hidden (S3.4: in a tree a display shows). (Bool only: compiled
        // out of the other specializations.)
        // Only the layer's own hidden counts: a layer under a hidden ancestor
        // still hears them, as it does when added or removed.
        if T.self == Bool.self, property.key == LayerProperties.hidden.key, ShownTrees.shared.shows(self) {
            runAction(forKey: state.hidden ? "onOrderOut" : "onOrderIn", animatable: false, in: transaction)
        }
    }

    public func get<T>(_ property: Property<T>) -> T { state[keyPath: property.keyPath] }

    /// A kind's property on a layer of another kind is an error (S7).
    public func checkKind(_ kind: LayerKind, _ key: String) throws(LayerKitError) {
        guard kind != .plain, kind != state.layerKind else { return }
        throw LayerKitError(.invalidArgument, "layer: \(key) is a property of a \(kind.name), and this is a \(state.layerKind.name)")
    }

    /// mask (S1.1, S6.1): the mask must be a free layer, not this layer, not
    /// an ancestor and not already another layer's mask.
    public func setMask(_ mask: Layer?) throws(LayerKitError) {
        try checkWritable()
        let old = state.mask
        guard mask !== old else { return }   // S3.6: no change, no action
        if let mask {
            if mask === self { throw LayerKitError(.hierarchy, "mask: a layer cannot be its own mask") }
            if mask.modelLayer != nil {
                throw LayerKitError(.state, "mask: a presentation layer is read-only and cannot be a mask; use its model layer")
            }
            if mask.superlayer != nil {
                throw LayerKitError(.hierarchy, "mask: the mask layer has a superlayer; remove it from its superlayer first")
            }
            if mask.maskOwner != nil { throw LayerKitError(.hierarchy, "mask: the layer is already the mask of another layer") }
            if isInside(mask) { throw LayerKitError(.hierarchy, "mask: the mask layer is an ancestor of the layer") }
            try Layer.checkNotShownRoot(mask, argument: "mask", as: "a mask")
            try checkDepth(adopting: mask, argument: "mask")
        }
        // The owners change with the mask, before the action runs: its
        // search may call back into the program, which may set masks or
        // move layers again, checked by these links (set after the action,
        // they were stale, and a later change could close a cycle).
        state.mask = mask
        old?.maskOwner = nil
        mask?.maskOwner = self
        changed()
        runAction(forKey: LayerProperties.mask.key, animatable: LayerProperties.mask.animatable)
    }

    public func setUserValue(_ value: Value, forKey key: String) throws(LayerKitError) {
        try checkWritable()
        if case .none = value { userValues.removeValue(forKey: key) } else { userValues[key] = value }
    }

    // MARK: Hierarchy (S1.3)

    /// True when `ancestor` is this layer or contains it (through sublayers or masks).
    func isInside(_ ancestor: Layer) -> Bool {
        var node: Layer? = self
        while let current = node {
            if current === ancestor { return true }
            node = current.parentInTree
        }
        return false
    }

    private func checkCanAdopt(_ child: Layer, argument: String) throws(LayerKitError) {
        if isInside(child) {
            throw LayerKitError(.hierarchy, child === self
                ? "\(argument): a layer cannot be its own sublayer"
                : "\(argument): the layer is an ancestor of the superlayer; adding it would make a cycle")
        }
        if child.maskOwner != nil {
            throw LayerKitError(.hierarchy, "\(argument): the layer is another layer's mask and cannot have a superlayer")
        }
        try Layer.checkNotShownRoot(child, argument: argument, as: "a sublayer")
        try checkDepth(adopting: child, argument: argument)
    }

    /// A layer is in one tree (S1.3): an open display's root put under
    /// another layer was drawn twice, as the root and in the other tree,
    /// the reverse of what lk_display_set_root_layer refuses.
    private static func checkNotShownRoot(_ layer: Layer, argument: String, as place: String) throws(LayerKitError) {
        guard ShownTrees.shared.isRoot(layer) else { return }
        throw LayerKitError(.hierarchy, "\(argument): the layer is the root layer of an open display and cannot be \(place); set another root or close the display first")
    }

    /// A tree is at most this many layers deep (from its root down through
    /// sublayers and masks). Drawing, committing, hit testing and releasing
    /// a tree recurse once a level: a chain of 1,000 nested layers
    /// overflowed an 8 MB stack while drawing, a crash (S8.1); a program's
    /// thread with a smaller stack crashed sooner. Far deeper than real
    /// interfaces, whose trees are tens of levels deep.
    public static let maximumDepth = 256

    /// Adopting `layer` (as a sublayer or the mask) keeps the tree within
    /// maximumDepth; otherwise an error naming `argument`.
    private func checkDepth(adopting layer: Layer, argument: String) throws(LayerKitError) {
        var above = 1   // this layer and its ancestors
        var node = parentInTree
        while let current = node {
            above += 1
            node = current.parentInTree
        }
        let room = Layer.maximumDepth - above
        let below = layer.levels(upTo: room + 1)
        if below > room {
            let why = room <= 0 ? "its new place would be at level \(above + 1)"
                : "its new place is at level \(above + 1), where \(room) level\(room == 1 ? "" : "s") fit, and its own tree is \(below) or more levels deep"
            throw LayerKitError(.hierarchy, "\(argument): the tree would be more than \(Layer.maximumDepth) layers deep (\(why))")
        }
    }

    /// The levels of this layer's tree (itself, its sublayers and masks,
    /// down to the deepest), counted up to `limit` (past which it stops:
    /// the caller only needs to know it is too deep). Iterative: the tree
    /// being measured may be the one too deep to recurse through.
    private func levels(upTo limit: Int) -> Int {
        var deepest = 0
        var pending: [(Layer, Int)] = [(self, 1)]
        while let (layer, level) = pending.popLast() {
            deepest = max(deepest, level)
            if deepest >= limit { return deepest }
            for child in layer.sublayers { pending.append((child, level + 1)) }
            if let mask = layer.state.mask { pending.append((mask, level + 1)) }
        }
        return deepest
    }

    /// Inserts at `index` of the sublayers as they are once the child has
    /// left any superlayer it had (so moving within one superlayer works as
    /// in Core Animation). An index past the end is an error.
    public func insertSublayer(_ child: Layer, at index: Int, argument: String = "child") throws(LayerKitError) {
        // (named as the C call names them: "layer" was said of both)
        try checkWritable("parent")
        try child.checkWritable(argument)
        try checkCanAdopt(child, argument: argument)
        let countAfterRemoval = sublayers.count - (child.superlayer === self ? 1 : 0)
        guard index >= 0, index <= countAfterRemoval else {
            // (a C size_t: printed unsigned)
            throw .invalid("index: \(UInt(bitPattern: index)) is beyond the sublayer count \(countAfterRemoval)")
        }
        // Already there: no change, no action (S3.6).
        let reordered = child.superlayer === self
        if reordered, indexOfSublayer(child) == index { return }
        let formerParent = child.superlayer.flatMap { $0 === self ? nil : $0 }
        child.detachFromSuperlayer()
        sublayers.insert(child, at: index)
        child.superlayer = self
        // A move from another superlayer is a removal there too (S3.4: its
        // "sublayers" event and layout; only the new one heard of it). The
        // actions run once the tree is as it ends up: an action may change
        // it again (run between, one made the index stale: a trap).
        formerParent?.sublayersChanged(removed: child)
        sublayersChanged(added: reordered ? nil : child)
    }

    /// S3.4: "sublayers" on the superlayer; "onOrderOut" on the layer
    /// removed and "onOrderIn" on the layer added (none for one moved among
    /// its siblings: it never left the tree, and an onOrderIn with no
    /// onOrderOut before it faded it in again), when this tree is shown
    /// by a display (a layer added to it need not have been committed: a new
    /// layer fading in is the common case). A hidden layer is not on screen
    /// to order in or out: it hears onOrderIn when it is unhidden, and had
    /// its onOrderOut when it was hidden (only its own hidden counts, not an
    /// ancestor's, as for the events of set(hidden)).
    private func sublayersChanged(added: Layer? = nil, removed: Layer? = nil) {
        changed()
        setNeedsLayout()
        runAction(forKey: "sublayers", animatable: false)
        guard added != nil || removed != nil else { return }
        let shown = ShownTrees.shared.shows(self)
        if let removed {
            removed.changed()
            if shown, !removed.state.hidden { removed.runAction(forKey: "onOrderOut", animatable: false) }
        }
        if let added {
            added.changed()
            if shown, !added.state.hidden { added.runAction(forKey: "onOrderIn", animatable: false, uncommitted: true) }
        }
    }

    public func addSublayer(_ child: Layer) throws(LayerKitError) {
        try insertSublayer(child, at: sublayers.count - (child.superlayer === self ? 1 : 0))
    }

    public func insertSublayer(_ child: Layer, below sibling: Layer) throws(LayerKitError) {
        try insertSublayer(child, nextTo: sibling, after: false)
    }

    public func insertSublayer(_ child: Layer, above sibling: Layer) throws(LayerKitError) {
        try insertSublayer(child, nextTo: sibling, after: true)
    }

    private func insertSublayer(_ child: Layer, nextTo sibling: Layer, after: Bool) throws(LayerKitError) {
        guard sibling.superlayer === self, indexOfSublayer(sibling) != nil else {
            throw LayerKitError(.hierarchy, "sibling: is not a sublayer of parent")
        }
        if child === sibling { return }
        // (named as the C calls name them: "layer" was said of both)
        try checkWritable("parent")
        try child.checkWritable("child")
        try checkCanAdopt(child, argument: "child")
        let reordered = child.superlayer === self
        if reordered, let c = indexOfSublayer(child), let s = indexOfSublayer(sibling), c == (after ? s + 1 : s - 1) {
            return   // already there (S3.6)
        }
        child.detachFromSuperlayer()
        let i = indexOfSublayer(sibling)!
        sublayers.insert(child, at: after ? i + 1 : i)
        child.superlayer = self
        sublayersChanged(added: reordered ? nil : child)
    }

    public func replaceSublayer(_ old: Layer, with new: Layer) throws(LayerKitError) {
        guard old.superlayer === self, let i = indexOfSublayer(old) else {
            throw LayerKitError(.hierarchy, "old_child: is not a sublayer of parent")
        }
        if old === new { return }
        try checkWritable("parent")
        try new.checkWritable("new_child")
        try checkCanAdopt(new, argument: "new_child")
        // A sibling taking old's place only moves among the sublayers: it
        // never left the tree, so no onOrderIn (as for insertSublayer).
        let reordered = new.superlayer === self
        let formerParent = new.superlayer.flatMap { $0 === self ? nil : $0 }
        new.detachFromSuperlayer()
        // Removing `new` may have shifted `old`.
        let at = indexOfSublayer(old) ?? i
        old.superlayer = nil
        new.superlayer = self
        sublayers[at] = new
        formerParent?.sublayersChanged(removed: new)   // (after: as in insertSublayer)
        sublayersChanged(added: reordered ? nil : new, removed: old)
        // Core Animation's action triggers: a layer replacing another in a
        // visible tree (replaceSublayer:with:) takes the transition action
        // (kCATransition), searched on the new layer; none is built in.
        if ShownTrees.shared.shows(self) { new.runAction(forKey: "transition", animatable: false, uncommitted: true) }
    }

    public func removeFromSuperlayer() throws(LayerKitError) {
        try checkWritable()
        guard let parent = superlayer else { return }
        detachFromSuperlayer()
        parent.sublayersChanged(removed: self)
    }

    /// Where `layer` is among the sublayers, looked for from both ends at
    /// once: the first and the last are found at once (tearing a list down
    /// from either end), where a search from the front made removing
    /// 20,000 sublayers from the back take 74 ms, quadratic.
    private func indexOfSublayer(_ layer: Layer) -> Int? {
        var front = 0, back = sublayers.count - 1
        while front <= back {
            if sublayers[front] === layer { return front }
            if sublayers[back] === layer { return back }
            front += 1
            back -= 1
        }
        return nil
    }

    /// Leaves the superlayer without events (a move reports its own).
    private func detachFromSuperlayer() {
        guard let parent = superlayer else { return }
        if let i = parent.indexOfSublayer(self) {
            parent.sublayers.remove(at: i)
            parent.changed()
        }
        superlayer = nil
    }

    /// The top of this layer's tree.
    public var rootLayer: Layer {
        var node = self
        while let parent = node.superlayer ?? node.maskOwner { node = parent }
        return node
    }
}

/// Where the superlayer of a presentation copy's top placed it when the copy
/// was made (S5.1): the superlayer's sublayerTransform about its anchor (nil
/// for a mask, placed in its owner's coordinates) and the superlayer's map
/// to its root's space, both as presented. Hit testing and conversions of
/// the copy read them where a model layer reads its ancestors.
final class PresentedPlacement: @unchecked Sendable {
    let sublayerTransform: Transform3D?
    let superlayerToRoot: Transform3D

    init(sublayerTransform: Transform3D?, superlayerToRoot: Transform3D) {
        self.sublayerTransform = sublayerTransform
        self.superlayerToRoot = superlayerToRoot
    }
}
