//===- VulkanDevicesTest.cpp - Two Vulkan devices in one process ----------===//
//
// The Vulkan runtime's units (lib/Runtime/Vulkan) over two Devices opened
// side by side on one physical device (lavapipe in CI): each has its own
// memory, queue and launcher, work on one leaves the other alone, and a
// lost device breaks itself only. Each single-device runtime's Context
// (one per entry of the process's device list) is one such Device and its
// units; these are the values it is built from.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/Vulkan/Context.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

using namespace kiln;
using namespace kiln::vkrt;

namespace {

/// A Device and the units over it, opened as the runtime opens its own and
/// released in the runtime's order.
struct OpenedDevice {
  Device device;
  Memory memory{device};
  Executables executables{device};
  Queue queue{device};
  Launcher launcher{device, memory, executables, queue};

  Status open(const Device &like, VkPhysicalDevice physical) {
    device.vk = like.vk;
    device.instance = like.instance;
    KILN_TRY(device.open(physical, DeviceOptions()));
    queue.chooseTiming(device.timestamps);
    KILN_TRY(executables.openCache());
    KILN_TRY(queue.open());
    return launcher.open();
  }
  ~OpenedDevice() {
    if (!device.device)
      return;
    queue.releaseAll();
    executables.releaseAll();
    memory.releaseAll();
    launcher.close();
    queue.close();
    executables.closeCache();
    device.close();
  }
};

} // namespace

TEST(VulkanDevices, AProcessHoldsTwoIndependentDevices) {
  // A Context of its own gives the instance and the physical device.
  Context context{rt::DevicePlace()};
  VkPhysicalDevice physical;
  {
    std::lock_guard<std::mutex> lock(context.mutex);
    Status instance = context.initInstance();
    if (instance)
      GTEST_SKIP() << "no Vulkan instance: " << instance.message();
    Expected<VkPhysicalDevice> chosen = context.choosePhysicalDevice();
    if (!chosen)
      GTEST_SKIP() << "no Vulkan device: " << chosen.error().message();
    physical = *chosen;
  }
  auto a = std::make_unique<OpenedDevice>();
  auto b = std::make_unique<OpenedDevice>();
  ASSERT_FALSE(a->open(context, physical));
  ASSERT_FALSE(b->open(context, physical));
  EXPECT_NE(a->device.device, b->device.device);

  // Memory of each device, filled and read back on its own queue.
  Expected<void *> onA = a->memory.allocate(256, /*hostShared=*/false);
  Expected<void *> onB = b->memory.allocate(256, /*hostShared=*/false);
  ASSERT_TRUE(onA);
  ASSERT_TRUE(onB);
  ASSERT_FALSE(a->launcher.fill(*onA, 0x11111111u, 4, 64));
  ASSERT_FALSE(b->launcher.fill(*onB, 0x22222222u, 4, 64));
  std::vector<uint32_t> back(64, 0);
  ASSERT_FALSE(a->launcher.copy(back.data(), *onA, 256));
  EXPECT_EQ(back[0], 0x11111111u);
  EXPECT_EQ(back[63], 0x11111111u);
  ASSERT_FALSE(b->launcher.copy(back.data(), *onB, 256));
  EXPECT_EQ(back[0], 0x22222222u);

  // A lost device marks itself broken, not the other.
  Status lost = a->device.vkCheck(VK_ERROR_DEVICE_LOST, "vkQueueSubmit",
                                  __FILE__, __LINE__);
  EXPECT_EQ(lost.kind(), rt::ErrorKind::DeviceLost);
  EXPECT_TRUE(a->device.broken);
  EXPECT_FALSE(b->device.broken);
  EXPECT_FALSE(context.broken);
  ASSERT_FALSE(b->launcher.fill(*onB, 0x33333333u, 4, 64));
  ASSERT_FALSE(b->launcher.copy(back.data(), *onB, 256));
  EXPECT_EQ(back[7], 0x33333333u);

  // Each closes on its own; the other still works.
  a.reset();
  ASSERT_FALSE(b->launcher.fill(*onB, 0x44444444u, 4, 64));
  ASSERT_FALSE(b->launcher.copy(back.data(), *onB, 256));
  EXPECT_EQ(back[1], 0x44444444u);
}
