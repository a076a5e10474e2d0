"""The pure pieces every engine shares, once: errors, strict JSON, half-up rounding, go grades,
month arithmetic."""
