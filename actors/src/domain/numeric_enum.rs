//! The `numeric_enum!` macro: one definition of an enumeration with fixed numeric ids.
//!
//! The spec gives most enumerations as numeric ids (page type 100 is "not found"). A
//! value defined with this macro serialises as its id (the wire and page-context form),
//! deserialises from its id or its kebab-case name (owners write names in site files),
//! and can print its own TypeScript declaration, so the client's copy is generated from
//! this one definition.

/// Defines a `Copy` enum whose variants carry a numeric id and a kebab-case name.
#[macro_export]
macro_rules! numeric_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $id:literal => $label:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[ $( $name::$variant ),+ ];

            /// The numeric id the spec gives this value.
            pub const fn id(self) -> u16 {
                match self { $( $name::$variant => $id ),+ }
            }

            /// The kebab-case name owners write in site files.
            pub const fn name(self) -> &'static str {
                match self { $( $name::$variant => $label ),+ }
            }

            /// The value with this numeric id, if any.
            pub fn from_id(id: u16) -> Option<Self> {
                match id { $( $id => Some($name::$variant), )+ _ => None }
            }

            /// The value with this kebab-case name, if any.
            pub fn from_name(name: &str) -> Option<Self> {
                match name { $( $label => Some($name::$variant), )+ _ => None }
            }

            /// The TypeScript declaration: a `const` object of ids and a union type.
            pub fn ts_declaration() -> String {
                let mut out = format!("export const {} = {{\n", stringify!($name));
                $( out.push_str(&format!("  {}: {},\n", stringify!($variant), $id)); )+
                out.push_str("} as const;\n");
                out.push_str(&format!(
                    "export type {0} = (typeof {0})[keyof typeof {0}];\n",
                    stringify!($name)
                ));
                out
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_u16(self.id())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Visitor;
                impl<'de> ::serde::de::Visitor<'de> for Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        write!(f, "one of: {}", [$($label),+].join(", "))
                    }
                    fn visit_u64<E: ::serde::de::Error>(self, v: u64) -> Result<$name, E> {
                        u16::try_from(v).ok().and_then($name::from_id).ok_or_else(|| {
                            E::custom(format!("{} is not a known {} id", v, stringify!($name)))
                        })
                    }
                    fn visit_i64<E: ::serde::de::Error>(self, v: i64) -> Result<$name, E> {
                        u64::try_from(v)
                            .map_err(|_| E::custom(format!("{} is not a known {} id", v, stringify!($name))))
                            .and_then(|v| self.visit_u64(v))
                    }
                    fn visit_str<E: ::serde::de::Error>(self, v: &str) -> Result<$name, E> {
                        $name::from_name(v).ok_or_else(|| {
                            E::custom(format!(
                                "'{}' is not one of: {}",
                                v,
                                [$($label),+].join(", ")
                            ))
                        })
                    }
                }
                d.deserialize_any(Visitor)
            }
        }
    };
}
