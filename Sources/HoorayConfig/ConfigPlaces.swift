import Foundation

/// A place the configuration is read from, as `hooray config path` lists it: a file, or a drop-in
/// folder whose `*.toml` files are read in name order.
public struct ConfigPlace: Sendable, Hashable, Encodable {
    /// Which layer a place is (``ConfigPaths`` lists them, earliest first).
    public enum Layer: String, Sendable, Hashable, Encodable {
        /// `/etc/hooray/hooray.toml`.
        case system
        /// `/etc/hooray/conf.d`, or a file in it.
        case systemDropIn = "system-drop-in"
        /// The user's `hooray.toml`.
        case user
        /// The user's `conf.d`, or a file in it.
        case userDropIn = "user-drop-in"
        /// The file given with `--config`.
        case commandLine = "config-option"
    }

    /// The full path.
    public var path: String
    /// The layer it belongs to.
    public var layer: Layer
    /// Whether it is a drop-in folder rather than a file.
    public var isFolder: Bool
    /// Whether it is there: a file or a folder that exists. A file that is not there is skipped,
    /// except one given with `--config`, which is an error.
    public var exists: Bool

    /// Creates a place.
    public init(path: String, layer: Layer, isFolder: Bool, exists: Bool) {
        self.path = path
        self.layer = layer
        self.isFolder = isFolder
        self.exists = exists
    }

    enum CodingKeys: String, CodingKey { case path, layer, folder, exists }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(layer, forKey: .layer)
        try container.encode(isFolder, forKey: .folder)
        try container.encode(exists, forKey: .exists)
    }
}

extension ConfigLoader {
    /// Every place the configuration is read from, in the order it is read (a later one overrides
    /// an earlier one): each layer's file, each drop-in folder followed by the `.toml` files in it,
    /// and the `--config` file last.
    ///
    /// - Returns: The places, with whether each exists.
    public func places() -> [ConfigPlace] {
        var places: [ConfigPlace] = []
        let layerKinds: [ConfigPlace.Layer] = [.system, .systemDropIn, .user, .userDropIn, .commandLine]
        for (layer, kind) in zip(layers(), layerKinds.filter { $0 != .commandLine || explicitFile != nil }) {
            switch layer {
            case .file(let path, _):
                places.append(ConfigPlace(path: path, layer: kind, isFolder: false, exists: Self.exists(path)))
            case .directory(let folder):
                places.append(ConfigPlace(path: folder, layer: kind, isFolder: true, exists: Self.exists(folder)))
                for file in (try? FileReader.tomlFiles(inDirectory: folder)) ?? [] {
                    places.append(ConfigPlace(path: file, layer: kind, isFolder: false, exists: true))
                }
            }
        }
        return places
    }

    private static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }
}
