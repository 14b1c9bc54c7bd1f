// `Switchyard` is the kernel (`SwitchyardCore`) plus the standard links: importing it gives both.
@_exported public import SwitchyardCore
