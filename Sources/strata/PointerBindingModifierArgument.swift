import ArgumentParser
import StrataServer

/// `--pointer-binding-modifier super|alt|ctrl`.
extension PointerBindingModifier: ExpressibleByArgument {}
