"""The Kivy layout (``.kv``) files, installed as the package ``companion.kv``.

One screen = one ``.kv`` file here + one Python module in ``companion/ui``. Find a file with
``companion.paths.kv_file(name)``, never with a path relative to the source tree.
"""
