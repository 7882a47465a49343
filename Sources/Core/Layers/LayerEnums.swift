/// contentsGravity (S1.1); the names are Core Animation's. "top" means the
/// top of the screen (y down): LayerKit follows the documentation, not the
/// flipped-geometry quirk of iOS where top and bottom trade places.
public enum ContentsGravity: Int32, CaseIterable, Sendable {
    case resize = 0, resizeAspect, resizeAspectFill, center, top, bottom, left, right,
         topLeft, topRight, bottomLeft, bottomRight

    public var name: String {
        switch self {
        case .resize: "resize"
        case .resizeAspect: "resizeAspect"
        case .resizeAspectFill: "resizeAspectFill"
        case .center: "center"
        case .top: "top"
        case .bottom: "bottom"
        case .left: "left"
        case .right: "right"
        case .topLeft: "topLeft"
        case .topRight: "topRight"
        case .bottomLeft: "bottomLeft"
        case .bottomRight: "bottomRight"
        }
    }
}

/// fillMode of a timing node (S4.1, S4.4).
public enum FillMode: Int32, CaseIterable, Sendable {
    case removed = 0, forwards, backwards, both

    public var name: String {
        switch self {
        case .removed: "removed"
        case .forwards: "forwards"
        case .backwards: "backwards"
        case .both: "both"
        }
    }
}

/// magnificationFilter and minificationFilter (CALayerContentsFilter): how
/// contents are sampled when drawn larger or smaller than their pixels.
/// "trilinear" asks for mipmaps, which Apple lets renderers ignore; LayerKit's
/// backends sample it as "linear" (docs/content.md).
public enum ContentsFilter: Int32, CaseIterable, Sendable {
    case linear = 0, nearest, trilinear

    public var name: String {
        switch self {
        case .linear: "linear"
        case .nearest: "nearest"
        case .trilinear: "trilinear"
        }
    }
}

extension ContentsGravity: NamedValue {}
extension FillMode: NamedValue {}
extension ContentsFilter: NamedValue {}
