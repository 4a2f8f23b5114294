"""Firmware of the region sensor grid: a Raspberry Pi Pico running MicroPython.

Copy ``main.py``, ``grid_device.py``, ``grid_frames.py`` and ``grid_scan.py`` to the
Pico (``hardware/README.md`` says how); it starts on power-up. Set the wiring below.

Concept: scan every sensor through the multiplexers every ``SCAN_MS`` ms, debounce over
``STABLE_SCANS`` scans, and talk to the companion over USB serial in the protocol of
docs/grid-protocol.md (``grid_device.GridDevice``).

Invariants: nothing but protocol frames is written to USB serial once the loop runs
(errors go into an ERR frame); nothing MicroPython-only is imported at module level, so
the host can import this file.
"""

FIRMWARE = "pico-grid-1.0.0"

# --- wiring (GPIO numbers of the Pico, not physical pins) -----------------------------
CELLS = 48  # sensors wired, cell 0 = channel 0 of the first multiplexer
SELECT_PINS = (2, 3, 4, 5)  # S0, S1, S2, S3, shared by every CD74HC4067
SIGNAL_PINS = (6, 7, 8)  # SIG of multiplexer 0, 1, 2 (and 9 for a fourth)
ACTIVE_LOW = True  # reed switch / open-drain Hall sensor to GND, internal pull-up
LED_PIN = "LED"  # the Pico's own LED: blinks with the heartbeat
SCAN_MS = 10
STABLE_SCANS = 3  # a change must last 3 scans (30 ms) to count
HEARTBEAT_MS = 1000
WATCHDOG_MS = 0  # e.g. 8000 to reboot a hung grid; 0 keeps the REPL reachable


def _stdio():
    """(read_input, write) on the USB serial port, never blocking."""
    import select
    import sys

    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    stdout = getattr(sys.stdout, "buffer", sys.stdout)

    def read_input():
        data = bytearray()
        while len(data) < 64 and poller.poll(0):
            chunk = stdin.read(1)
            if not chunk:
                break
            data += chunk if isinstance(chunk, (bytes, bytearray)) else chunk.encode()
        return bytes(data)

    def write(data):
        stdout.write(data)

    return read_input, write


def main():
    import time

    from grid_device import GridDevice
    from grid_scan import MuxScanner
    from machine import Pin

    select_pins = [Pin(n, Pin.OUT, value=0) for n in SELECT_PINS]
    pull = Pin.PULL_UP if ACTIVE_LOW else Pin.PULL_DOWN
    signal_pins = [Pin(n, Pin.IN, pull) for n in SIGNAL_PINS]
    scanner = MuxScanner(
        select_pins, signal_pins, CELLS, ACTIVE_LOW, settle=lambda: time.sleep_us(5)
    )
    led = Pin(LED_PIN, Pin.OUT)
    read_input, write = _stdio()
    device = GridDevice(
        scanner.read, read_input, write, CELLS, FIRMWARE, STABLE_SCANS, HEARTBEAT_MS
    )
    watchdog = None
    if WATCHDOG_MS:
        from machine import WDT

        watchdog = WDT(timeout=WATCHDOG_MS)
    device.start()
    last_heartbeat = device.last_heartbeat
    while True:
        started = time.ticks_ms()
        try:
            device.step()
        except Exception as error:  # report, never stop scanning
            write(device_error(device, error))
        if device.last_heartbeat != last_heartbeat:
            last_heartbeat = device.last_heartbeat
            led.toggle()
        if watchdog is not None:
            watchdog.feed()
        spent = time.ticks_diff(time.ticks_ms(), started)
        if spent < SCAN_MS:
            time.sleep_ms(SCAN_MS - spent)


def device_error(device, error):
    import grid_frames

    return grid_frames.error(device.next_seq(), "FIRMWARE", repr(error))


if __name__ == "__main__":
    main()
