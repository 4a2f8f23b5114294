"""The screens: one module + one kv file each. A screen holds its presenter in `p`."""
