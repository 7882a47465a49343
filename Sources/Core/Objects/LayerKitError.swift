/// The status codes of the C API (lk_status), as a Swift value.
public enum Status: Int32, Sendable {
    case ok = 0
    case invalidArgument = 1
    case unknownKeyPath = 2
    case typeMismatch = 3
    case hierarchy = 4
    case notFound = 5
    case io = 6
    case backend = 7
    case state = 8
    case outOfMemory = 9
}

/// Every failure in the core: a status and a message that says what was wrong
/// and with which argument (S8.1). Thrown inside, turned into lk_status +
/// lk_last_error at the C boundary.
public struct LayerKitError: Error, Equatable, CustomStringConvertible, Sendable {
    public let status: Status
    public let message: String

    public init(_ status: Status, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }

    static func invalid(_ message: String) -> LayerKitError { LayerKitError(.invalidArgument, message) }
}
