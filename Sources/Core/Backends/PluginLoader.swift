import CLayerKit
import CSupport
import Glibc
import Synchronization

/// A loaded backend plugin: its file and its function table.
final class BackendPlugin: @unchecked Sendable {
    let name: String
    let path: String
    let table: UnsafePointer<lk_backend>

    init(name: String, path: String, table: UnsafePointer<lk_backend>) {
        self.name = name
        self.path = path
        self.table = table
    }
}

/// Finds and loads backend plugins (S8.2): "liblayerkit-<name>.so" in each
/// directory of $LAYERKIT_PLUGIN_PATH, then in layerkit/backends/ beside the
/// library itself (found with dladdr, so a relocated install still works).
public enum PluginLoader {
    /// The order `auto` tries: the display hardware first, then a GPU, then memory.
    static let automaticOrder = ["drm", "gles", "software"]

    /// Plugins stay loaded (RTLD_NODELETE): unloading a Swift image breaks later metadata lookups.
    private static let loaded = Mutex<[String: BackendPlugin]>([:])

    static var searchDirectories: [String] {
        var dirs = environmentDirectories
        if let libraryDir = libraryDirectory { dirs.append(libraryDir + "/layerkit/backends") }
        return dirs
    }

    /// LAYERKIT_PLUGIN_PATH's folders, searched first.
    private static var environmentDirectories: [String] {
        guard let env = getenv("LAYERKIT_PLUGIN_PATH") else { return [] }
        return String(cString: env).split(separator: ":").map(String.init).filter { !$0.isEmpty }
    }

    /// The folder of the image this code is linked into (liblayerkit.so).
    private static var libraryDirectory: String? {
        guard let file = layerkit_support_image_path(#dsohandle) else { return nil }
        let path = String(cString: file)
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    static func fileName(for name: String) -> String {
        LK_BACKEND_FILE_PREFIX + name + LK_BACKEND_FILE_SUFFIX
    }

    /// Loads the plugin `name`, or says why not: not found (and where it
    /// looked), not loadable (dlerror), no entry symbol, or an ABI mismatch.
    static func load(_ name: String) throws(LayerKitError) -> BackendPlugin {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw LayerKitError(.invalidArgument, "backend: \"\(name)\" is not a valid backend name")
        }
        let dirs = searchDirectories
        let file = fileName(for: name)
        for dir in dirs {
            let path = dir + "/" + file
            guard access(path, F_OK) == 0 else { continue }
            if let plugin = loaded.withLock({ $0[path] }) { return plugin }
            let plugin = try open(name: name, path: path)
            loaded.withLock { $0[path] = plugin }
            return plugin
        }
        let places = dirs.isEmpty ? "(no search directory: set LAYERKIT_PLUGIN_PATH)" : dirs.joined(separator: ", ")
        throw LayerKitError(.notFound, "backend \"\(name)\": no plugin \(file) in \(places)")
    }

    /// One plugin file found by `survey`: its function table, or why it was rejected.
    public struct SurveyEntry {
        public let name: String
        public let path: String
        public let table: UnsafePointer<lk_backend>?
        public let rejection: String?
    }

    /// Every liblayerkit-<name>.so in the search directories and then in
    /// `extraDirectories`, in search order, each loaded and checked as
    /// `load` does; a later file of a name already found is reported as
    /// shadowed, because `load` would never take it. For lk-info.
    /// `libraryBackends`: the folder to search in place of the one beside
    /// this image (lk-info links the core into its executable, in bin/, and
    /// asks what an installed liblayerkit.so would search; it listed
    /// bin/layerkit/backends too, which the library never searches).
    public static func survey(libraryBackends: String? = nil) -> (directories: [String], entries: [SurveyEntry]) {
        var directories: [String] = []
        let candidates = libraryBackends.map { environmentDirectories + [$0] } ?? searchDirectories
        for dir in candidates where !directories.contains(dir) { directories.append(dir) }
        var entries: [SurveyEntry] = []
        var taken: [String: String] = [:]
        for dir in directories {
            guard let stream = opendir(dir) else { continue }
            var files: [String] = []
            while let entry = readdir(stream) {
                let file = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                if file.hasPrefix(LK_BACKEND_FILE_PREFIX) && file.hasSuffix(LK_BACKEND_FILE_SUFFIX) { files.append(file) }
            }
            closedir(stream)
            for file in files.sorted() {
                let name = String(file.dropFirst(LK_BACKEND_FILE_PREFIX.count).dropLast(LK_BACKEND_FILE_SUFFIX.count))
                let path = dir + "/" + file
                if let first = taken[name] {
                    entries.append(SurveyEntry(name: name, path: path, table: nil,
                                               rejection: "shadowed by \(first), which comes first in the search path"))
                    continue
                }
                taken[name] = path
                if let plugin = loaded.withLock({ $0[path] }) {
                    entries.append(SurveyEntry(name: name, path: path, table: plugin.table, rejection: nil))
                    continue
                }
                do throws(LayerKitError) {
                    let plugin = try open(name: name, path: path)
                    loaded.withLock { $0[path] = plugin }
                    entries.append(SurveyEntry(name: name, path: path, table: plugin.table, rejection: nil))
                } catch {
                    entries.append(SurveyEntry(name: name, path: path, table: nil, rejection: error.message))
                }
            }
        }
        return (directories, entries)
    }

    private static func open(name: String, path: String) throws(LayerKitError) -> BackendPlugin {
        _ = dlerror()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen failure"
            throw LayerKitError(.backend, "backend \"\(name)\": \(path): cannot load: \(reason)")
        }
        guard let symbol = dlsym(handle, LK_BACKEND_ENTRY_SYMBOL) else {
            throw LayerKitError(.backend, "backend \"\(name)\": \(path): no entry symbol \(LK_BACKEND_ENTRY_SYMBOL)")
        }
        let entry = unsafeBitCast(symbol, to: lk_backend_entry_fn.self)
        guard let table = entry(LK_BACKEND_ABI_VERSION) else {
            throw LayerKitError(.backend, "backend \"\(name)\": \(path): the plugin does not support ABI version \(LK_BACKEND_ABI_VERSION)")
        }
        let t = table.pointee
        guard t.abi_version == LK_BACKEND_ABI_VERSION else {
            throw LayerKitError(.backend, "backend \"\(name)\": \(path): ABI version \(t.abi_version), expected \(LK_BACKEND_ABI_VERSION)")
        }
        guard t.struct_size >= UInt32(MemoryLayout<lk_backend>.size) else {
            throw LayerKitError(.backend, "backend \"\(name)\": \(path): function table of \(t.struct_size) bytes, expected at least \(MemoryLayout<lk_backend>.size)")
        }
        guard t.open != nil, t.close != nil, t.get_output != nil, t.render != nil, t.read_pixels != nil,
              t.image_released != nil else {
            throw LayerKitError(.backend, "backend \"\(name)\": \(path): the function table has a NULL entry")
        }
        return BackendPlugin(name: name, path: path, table: table)
    }
}
