/// A layer of the model tree: what the program sets (S5.1). Its stored
/// properties live in `state`; every change goes through `set`, which
/// validates by the property table and ignores changes to the same value.
public class Layer: Object, @unchecked Sendable {
    public final internal(set) var state = LayerState()
    public final private(set) var sublayers: [Layer] = []
    /// The superlayer retains this layer, so while it is set it is alive; it
    /// clears the reference when it lets go. Unowned-unsafe avoids a weak
    /// reference's side allocation on every layer.
    public private(set) unowned(unsafe) var superlayer: Layer?
    /// The layer whose mask this layer is, if any (same lifetime rule).
    public internal(set) unowned(unsafe) var maskOwner: Layer?
    /// Extra values stored by the program (S1.6).
    public private(set) var userValues: [String: Value] = [:]
    /// Bumped on every change to this layer; damage tracking compares it.
    public private(set) var changeCount: UInt64 = 0

    public init() {
        super.init(kind: .layer)
    }

    deinit {
        for sublayer in sublayers { sublayer.superlayer = nil }
        state.mask?.maskOwner = nil
    }

    // MARK: Properties

    /// Sets a property through its table row: validates, stores, records the change.
    public func set<T>(_ property: Property<T>, _ newValue: T) throws(LayerKitError) {
        let value = try property.validated(newValue, in: state)
        guard state[keyPath: property.keyPath] != value else { return } // S3.6: no change
        state[keyPath: property.keyPath] = value
        changeCount &+= 1
    }

    public func get<T>(_ property: Property<T>) -> T { state[keyPath: property.keyPath] }

    /// mask (S1.1, S6.1): the mask must be a free layer, not this layer, not
    /// an ancestor and not already another layer's mask.
    public func setMask(_ mask: Layer?) throws(LayerKitError) {
        if let mask, mask !== state.mask {
            if mask === self { throw LayerKitError(.hierarchy, "mask: a layer cannot be its own mask") }
            if mask.superlayer != nil {
                throw LayerKitError(.hierarchy, "mask: the mask layer has a superlayer; remove it from its superlayer first")
            }
            if mask.maskOwner != nil { throw LayerKitError(.hierarchy, "mask: the layer is already the mask of another layer") }
            if isInside(mask) { throw LayerKitError(.hierarchy, "mask: the mask layer is an ancestor of the layer") }
        }
        let old = state.mask
        try set(LayerProperties.mask, mask)
        if old !== mask {
            old?.maskOwner = nil
            mask?.maskOwner = self
        }
    }

    public func setUserValue(_ value: Value, forKey key: String) {
        if case .none = value { userValues.removeValue(forKey: key) } else { userValues[key] = value }
    }

    // MARK: Hierarchy (S1.3)

    /// True when `ancestor` is this layer or contains it (through sublayers or masks).
    func isInside(_ ancestor: Layer) -> Bool {
        var node: Layer? = self
        while let current = node {
            if current === ancestor { return true }
            node = current.superlayer ?? current.maskOwner
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
    }

    /// Inserts at `index` of the sublayers as they are once the child has
    /// left any superlayer it had (so moving within one superlayer works as
    /// in Core Animation). An index past the end is an error.
    public func insertSublayer(_ child: Layer, at index: Int, argument: String = "child") throws(LayerKitError) {
        try checkCanAdopt(child, argument: argument)
        let countAfterRemoval = sublayers.count - (child.superlayer === self ? 1 : 0)
        guard index >= 0, index <= countAfterRemoval else {
            throw .invalid("index: \(index) is beyond the sublayer count \(countAfterRemoval)")
        }
        child.removeFromSuperlayer()
        sublayers.insert(child, at: index)
        child.superlayer = self
        changeCount &+= 1
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
        guard sibling.superlayer === self, sublayers.contains(where: { $0 === sibling }) else {
            throw LayerKitError(.hierarchy, "sibling: is not a sublayer of parent")
        }
        if child === sibling { return }
        try checkCanAdopt(child, argument: "child")
        child.removeFromSuperlayer()
        let i = sublayers.firstIndex(where: { $0 === sibling })!
        sublayers.insert(child, at: after ? i + 1 : i)
        child.superlayer = self
        changeCount &+= 1
    }

    public func replaceSublayer(_ old: Layer, with new: Layer) throws(LayerKitError) {
        guard old.superlayer === self, let i = sublayers.firstIndex(where: { $0 === old }) else {
            throw LayerKitError(.hierarchy, "old_child: is not a sublayer of parent")
        }
        if old === new { return }
        try checkCanAdopt(new, argument: "new_child")
        new.removeFromSuperlayer()
        // Removing `new` may have shifted `old`.
        let at = sublayers.firstIndex(where: { $0 === old }) ?? i
        old.superlayer = nil
        new.superlayer = self
        sublayers[at] = new
        changeCount &+= 1
    }

    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        if let i = parent.sublayers.firstIndex(where: { $0 === self }) {
            parent.sublayers.remove(at: i)
            parent.changeCount &+= 1
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
