"""Fixtures of Kiln's Python tests (helpers are in support.py).

Every test that runs code takes the `target` fixture, which runs it once per
target: spirv-cpu (the host CPU), vulkan (lavapipe where there is no GPU) and
cuda. A target without a device is skipped with the reason its runtime gave
(kiln.devices() failing or listing nothing), never silently.
"""

import pytest

import support


@pytest.fixture(params=support.TARGETS)
def target(request):
    """Each target in turn; one without a device is skipped, saying why."""
    why = support.unavailable(request.param)
    if why is not None:
        pytest.skip(f"no {request.param} device: {why}")
    return request.param
