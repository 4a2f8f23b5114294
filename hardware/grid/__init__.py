"""The region sensor grid, host side.

- :mod:`~hardware.grid.protocol`: frames, messages, and the pure parser (no I/O).
- :mod:`~hardware.grid.link`: :class:`~hardware.grid.link.GridLink`, the serial port and
  its reader thread: handshake, GET after gaps, offline after silence, reconnection.
- :mod:`~hardware.grid.settle`: snapshots believed only once the board is still.
- :mod:`~hardware.grid.calibration`: which sensor cell lies under which region.
- :mod:`~hardware.grid.sim`: a simulated grid on a pseudo-terminal.

The protocol is specified in ``docs/grid-protocol.md``.
"""
