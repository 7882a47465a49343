/// CATransformLayer (S7.6): no properties of its own. Its sublayers share
/// its 3D space and are sorted by depth instead of being flattened into its
/// plane (S6.3); its own background, contents, border, shadow, mask and
/// masksToBounds are not drawn (as Core Animation ignores them). The
/// display list builder does the work (Render/TransformLayerSpace.swift).
public struct TransformState: KindState {
    public static var kind: LayerKind { .transform }
    public init() {}
}

public enum TransformProperties {
    static let byKey: [String: AnyProperty] = [:]
}
