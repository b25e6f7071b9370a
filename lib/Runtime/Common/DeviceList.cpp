//===- DeviceList.cpp - A process's devices, one runtime each ------------===//
//
// rt::DeviceList (DeviceList.h): the device model every runtime shares, over
// one single-device runtime per entry of the program's device list.
//
// Memory, copies and timing are in DeviceListMemory.cpp.
//
// Locking: `mutex` guards the tables only. No call into a device is made
// while it is held, because a device calls back up (ownerOf, the timing
// trampoline) while it holds its own lock. Devices are made one at a time
// under `making`, which is taken before `mutex`, never under it.
//
//===----------------------------------------------------------------------===//

#include "../DeviceList.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

namespace kiln {
namespace rt {

namespace {
/// Each list's identity in the threads' records (never reused, so a record
/// of a destroyed list matches nothing).
std::atomic<uint64_t> nextListId{1};

/// The calling thread's current device in each list it set one in.
struct CurrentDevice {
  uint64_t list;
  int index;
};
thread_local std::vector<CurrentDevice> currentDevices;

std::string trim(const std::string &text) {
  size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos)
    return "";
  size_t end = text.find_last_not_of(" \t");
  return text.substr(begin, end - begin + 1);
}
} // namespace

Status DevicePlace::checkLaunchMemory(const std::string &kernel,
                                      size_t argument,
                                      uintptr_t address) const {
  if (!ownerOf)
    return Status::success();
  int owner = ownerOf(address);
  if (owner < 0 || owner == index)
    return Status::success();
  return KILN_ERROR(InvalidArgument,
                    "kernel '" + kernel + "' argument " +
                        std::to_string(argument) + " is memory of device " +
                        std::to_string(owner) + " (its gpu.alloc), but the " +
                        "launch runs on device " + std::to_string(index) +
                        "; copy it to device " + std::to_string(index) +
                        " first (gpu.memcpy)");
}

Expected<std::vector<std::string>> parseDeviceList(const std::string &text,
                                                   const std::string &source) {
  std::vector<std::string> entries;
  if (trim(text).empty())
    return std::vector<std::string>{""};
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string entry = trim(text.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start));
    if (entry.empty())
      return KILN_ERROR(InvalidArgument,
                        source + "='" + text + "': entry " +
                            std::to_string(entries.size()) +
                            " is empty; each comma-separated entry is a "
                            "device index, a name substring or a UUID");
    entries.push_back(entry);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return entries;
}

//===-- The list's objects ------------------------------------------------===//

/// A loaded module: its blob, to load it on a device at its first launch
/// there, and its handle on each device it is loaded on.
struct DeviceList::Module {
  std::vector<unsigned char> blob;
  bool jit = false; ///< PTX for mgpuModuleLoadJIT (blob ends in a NUL).
  int optLevel = 0;
  std::mutex mutex;      ///< Guards the two maps and `unloaded`.
  bool unloaded = false; ///< mgpuModuleUnload came: load it nowhere again.
  std::map<int, void *> handles;
  std::map<std::string, std::shared_ptr<Kernel>> kernels;
};

/// A kernel of a module, with its function on each device it was looked up
/// on.
struct DeviceList::Kernel {
  std::shared_ptr<Module> module;
  std::string name;
  std::mutex mutex;
  std::map<int, void *> functions;
};

/// An event: made on the device current at mgpuEventCreate, and on any other
/// device a stream of which records it.
struct DeviceList::Event {
  int created = 0;
  std::mutex mutex;
  std::map<int, void *> handles;
  int last = -1; ///< The device that recorded it last (-1: none yet).

  /// Where waits for it go (the device that recorded it last, else the one
  /// it was made on) and its handle there. Under `mutex`.
  std::pair<int, void *> waitedOn() {
    int index = last >= 0 ? last : created;
    return {index, handles[index]};
  }
  /// Its handle on device `index`, else the one it was made on: what a
  /// device is handed to refuse a call in its own words. Under `mutex`.
  void *handleFor(int index) {
    auto it = handles.find(index);
    return it == handles.end() ? handles[created] : it->second;
  }
};

namespace {
/// The entry for `handle` in one of the list's tables (null: none). The
/// caller holds the tables' lock.
template <typename T>
std::shared_ptr<T>
lookup(const std::unordered_map<void *, std::shared_ptr<T>> &table,
       void *handle) {
  auto it = table.find(handle);
  return it == table.end() ? nullptr : it->second;
}
} // namespace

//===-- Devices -----------------------------------------------------------===//

DeviceList::DeviceList(const char *backend, const char *variable,
                       Factory factory)
    : backendName(backend), variable(variable), factory(std::move(factory)),
      id(nextListId++) {}

DeviceList::~DeviceList() {
  // Modules, kernels and events hold device handles: release them while
  // the devices still exist, then the devices, last made first. A device
  // goes without the tables' lock held: its destructor takes its own lock,
  // which a launch holds while it asks the list under `mutex`.
  std::vector<std::unique_ptr<Slot>> made;
  {
    std::unique_lock<std::shared_mutex> lock(mutex);
    kernels.clear();
    modules.clear();
    events.clear();
    made.swap(devices);
  }
  while (!made.empty())
    made.pop_back();
}

int DeviceList::currentIndex() const {
  for (const CurrentDevice &c : currentDevices)
    if (c.list == id)
      return c.index;
  return 0;
}

Expected<std::vector<std::string>> DeviceList::entries() {
  {
    std::shared_lock<std::shared_mutex> lock(mutex);
    if (listRead)
      return list;
  }
  std::unique_lock<std::shared_mutex> lock(mutex);
  if (!listRead) {
    std::string source = "--device", text;
    if (options.device) {
      text = *options.device;
    } else if (const char *value = variable ? std::getenv(variable) : nullptr) {
      source = variable;
      text = value;
    }
    KILN_ASSIGN_OR_RETURN(list, parseDeviceList(text, source));
    devices.resize(list.size());
    listRead = true;
  }
  return list;
}

namespace {
/// "2 devices (--device=0,0)" for messages.
std::string describeList(const std::vector<std::string> &list,
                         const std::optional<std::string> &given,
                         const char *variable) {
  std::string text =
      std::to_string(list.size()) + (list.size() == 1 ? " device" : " devices");
  std::string joined;
  for (size_t i = 0; i < list.size(); ++i)
    joined += (i ? "," : "") + list[i];
  if (given)
    return text + " (--device=" + joined + ")";
  if (variable && std::getenv(variable))
    return text + " (" + variable + "=" + joined + ")";
  return text + " (the default device; list more with --device=A,B or " +
         (variable ? variable : "--device") + ")";
}
} // namespace

Expected<Runtime *> DeviceList::device(int index) {
  if (opened.load(std::memory_order_acquire)) {
    // Every call but the first on each device ends here.
    std::shared_lock<std::shared_mutex> lock(mutex);
    if (index >= 0 && static_cast<size_t>(index) < devices.size())
      if (Slot *slot = devices[index].get())
        return slot->runtime.get();
  }
  KILN_ASSIGN_OR_RETURN(Runtime * runtime, made(index));
  KILN_ASSIGN_OR_RETURN(std::vector<std::string> names, entries());
  if (names.size() == 1) {
    opened.store(true, std::memory_order_release);
    return runtime;
  }
  // A list of several devices opens them all at its first use, so that an
  // entry no device matches is an error before the program runs, not when
  // it first switches to that device.
  std::call_once(openOnce, [&] {
    openStatus = initialize();
    if (!openStatus)
      opened.store(true, std::memory_order_release);
  });
  if (openStatus)
    return openStatus;
  return runtime;
}

Expected<Runtime *> DeviceList::made(int index) {
  {
    std::shared_lock<std::shared_mutex> lock(mutex);
    if (index >= 0 && static_cast<size_t>(index) < devices.size())
      if (Slot *slot = devices[index].get())
        return slot->runtime.get();
  }
  KILN_ASSIGN_OR_RETURN(std::vector<std::string> names, entries());
  if (index < 0 || static_cast<size_t>(index) >= names.size())
    return KILN_ERROR(InvalidArgument,
                      "device " + std::to_string(index) +
                          " is not in the program's device list: it has " +
                          describeList(names, options.device, variable) +
                          ", numbered 0.." + std::to_string(names.size() - 1));
  // Made and configured under `making` only: its configure takes its own
  // lock, which a launch holds while it asks the list under `mutex`.
  std::lock_guard<std::mutex> makingLock(making);
  Options given;
  bool timed;
  {
    std::shared_lock<std::shared_mutex> lock(mutex);
    if (Slot *slot = devices[index].get())
      return slot->runtime.get();
    given = options;
    timed = timing || deviceTiming;
  }
  auto slot = std::make_unique<Slot>();
  slot->list = this;
  slot->index = index;
  DevicePlace place;
  place.index = index;
  place.count = static_cast<int>(names.size());
  place.ownerOf = [this](uintptr_t address) { return ownerOf(address); };
  slot->runtime = factory(place);
  given.device = names[index];
  if (Status status = slot->runtime->configure(given)) {
    if (names.size() > 1)
      status.prepend("device " + std::to_string(index) + " (entry '" +
                     names[index] + "'): ");
    return status;
  }
  KILN_TRY(installTiming(*slot, timed));
  Runtime *made = slot->runtime.get();
  std::unique_lock<std::shared_mutex> lock(mutex);
  devices[index] = std::move(slot);
  return made;
}

int32_t DeviceList::deviceCount() {
  Expected<std::vector<std::string>> names = entries();
  return names ? static_cast<int32_t>(names->size()) : 1;
}

Status DeviceList::configure(const Options &given) {
  // No device is made meanwhile with the options before these.
  std::lock_guard<std::mutex> makingLock(making);
  std::vector<Runtime *> made;
  {
    std::unique_lock<std::shared_mutex> lock(mutex);
    if (given.device && listRead)
      return KILN_ERROR(InvalidArgument,
                        std::string("the ") + backendName +
                            " runtime's device list is set before its first "
                            "use; it was read already");
    options.merge(given);
    for (std::unique_ptr<Slot> &slot : devices)
      if (slot)
        made.push_back(slot->runtime.get());
  }
  // Devices made already (to list devices, say) take the options too, or
  // refuse them once started.
  for (Runtime *device : made) {
    Options forDevice = given;
    forDevice.device.reset();
    KILN_TRY(device->configure(forDevice));
  }
  return Status::success();
}

Status DeviceList::initialize() {
  KILN_ASSIGN_OR_RETURN(std::vector<std::string> names, entries());
  for (size_t i = 0; i < names.size(); ++i) {
    // made() names the device in its own errors.
    KILN_ASSIGN_OR_RETURN(Runtime * device, made(int(i)));
    Status status = device->initialize();
    if (status && names.size() > 1)
      status.prepend("device " + std::to_string(i) + " (entry '" + names[i] +
                     "'): ");
    KILN_TRY(status);
  }
  return Status::success();
}

Expected<std::string> DeviceList::describeDevices() {
  // Listing devices opens none (an entry that matches nothing still lets
  // the user see what there is).
  KILN_ASSIGN_OR_RETURN(Runtime * first, made(0));
  KILN_ASSIGN_OR_RETURN(std::string text, first->describeDevices());
  KILN_ASSIGN_OR_RETURN(std::vector<std::string> names, entries());
  if (names.size() > 1 || !names[0].empty()) {
    text += "the program's devices: " +
            describeList(names, options.device, variable) + "\n";
    for (size_t i = 0; i < names.size(); ++i)
      text += "  " + std::to_string(i) + ": entry '" + names[i] + "'\n";
  }
  return text;
}

Expected<std::string> DeviceList::deviceTarget() {
  KILN_ASSIGN_OR_RETURN(Runtime * device, current());
  return device->deviceTarget();
}

Status DeviceList::setDefaultDevice(int32_t index) {
  KILN_ASSIGN_OR_RETURN(std::vector<std::string> names, entries());
  if (index < 0 || static_cast<size_t>(index) >= names.size())
    return KILN_ERROR(InvalidArgument,
                      "mgpuSetDefaultDevice(" + std::to_string(index) +
                          "): the program has " +
                          describeList(names, options.device, variable) +
                          ", numbered 0.." + std::to_string(names.size() - 1));
  for (CurrentDevice &c : currentDevices)
    if (c.list == id) {
      c.index = index;
      return Status::success();
    }
  currentDevices.push_back({id, index});
  return Status::success();
}

//===-- Tables ------------------------------------------------------------===//

int DeviceList::streamDevice(void *stream) const {
  if (!stream)
    return currentIndex();
  std::shared_lock<std::shared_mutex> lock(mutex);
  auto it = streams.find(stream);
  return it == streams.end() ? -1 : it->second;
}

int DeviceList::memoryDevice(const void *address) const {
  auto at = reinterpret_cast<uintptr_t>(address);
  std::shared_lock<std::shared_mutex> lock(mutex);
  auto it = allocations.upper_bound(at);
  if (it == allocations.begin())
    return -1;
  --it;
  uint64_t size = it->second.first;
  if (at == it->first || at - it->first < size)
    return it->second.second;
  return -1;
}

int DeviceList::ownerOf(uintptr_t address) const {
  return memoryDevice(reinterpret_cast<const void *>(address));
}

std::shared_ptr<DeviceList::Module> DeviceList::findModule(void *h) const {
  std::shared_lock<std::shared_mutex> lock(mutex);
  return lookup(modules, h);
}

std::shared_ptr<DeviceList::Kernel> DeviceList::findKernel(void *h) const {
  std::shared_lock<std::shared_mutex> lock(mutex);
  return lookup(kernels, h);
}

std::shared_ptr<DeviceList::Event> DeviceList::findEvent(void *h) const {
  std::shared_lock<std::shared_mutex> lock(mutex);
  return lookup(events, h);
}

//===-- Modules and launches ----------------------------------------------===//

Expected<void *> DeviceList::addModule(Expected<void *> loaded,
                                       const void *data, size_t size, bool jit,
                                       int optLevel) {
  if (!loaded)
    return loaded.error();
  auto module = std::make_shared<Module>();
  const auto *bytes = static_cast<const unsigned char *>(data);
  module->blob.assign(bytes, bytes + size);
  module->jit = jit;
  module->optLevel = optLevel;
  module->handles[currentIndex()] = *loaded;
  std::unique_lock<std::shared_mutex> lock(mutex);
  modules[module.get()] = module;
  return static_cast<void *>(module.get());
}

Expected<void *> DeviceList::loadModule(const void *data, size_t size) {
  KILN_ASSIGN_OR_RETURN(Runtime * device, current());
  return addModule(device->loadModule(data, size), data, size, false, 0);
}

Expected<void *> DeviceList::loadModuleJIT(void *data, int optLevel) {
  KILN_ASSIGN_OR_RETURN(Runtime * device, current());
  // PTX text: kept with its NUL.
  return addModule(device->loadModuleJIT(data, optLevel), data,
                   std::strlen(static_cast<char *>(data)) + 1, true, optLevel);
}

Status DeviceList::onEachDevice(const std::map<int, void *> &handles,
                                Status (Runtime::*release)(void *)) {
  Status first;
  for (const auto &[index, handle] : handles) {
    Expected<Runtime *> device = this->device(index);
    Status status = device ? ((*device)->*release)(handle) : device.error();
    if (status && !first)
      first = status;
  }
  return first;
}

Status DeviceList::unloadModule(void *handle) {
  std::shared_ptr<Module> module;
  {
    std::unique_lock<std::shared_mutex> lock(mutex);
    if ((module = lookup(modules, handle)))
      modules.erase(handle);
  }
  if (!module) {
    // Not a module of the list: the current device refuses it in its words.
    KILN_ASSIGN_OR_RETURN(Runtime * device, current());
    return device->unloadModule(handle);
  }
  // The module's lock is never taken under the tables' lock: it is held
  // while a device loads the module.
  std::map<int, void *> handles;
  std::vector<Kernel *> gone;
  {
    std::lock_guard<std::mutex> lock(module->mutex);
    module->unloaded = true;
    handles.swap(module->handles);
    for (auto &[name, kernel] : module->kernels)
      gone.push_back(kernel.get());
  }
  {
    std::unique_lock<std::shared_mutex> lock(mutex);
    for (Kernel *kernel : gone)
      kernels.erase(kernel);
  }
  return onEachDevice(handles, &Runtime::unloadModule);
}

Expected<void *> DeviceList::functionOn(const std::shared_ptr<Kernel> &kernel,
                                        int index) {
  {
    std::lock_guard<std::mutex> lock(kernel->mutex);
    auto it = kernel->functions.find(index);
    if (it != kernel->functions.end())
      return it->second;
  }
  KILN_ASSIGN_OR_RETURN(Runtime * device, this->device(index));
  Module &module = *kernel->module;
  void *loaded = nullptr;
  {
    std::lock_guard<std::mutex> lock(module.mutex);
    auto it = module.handles.find(index);
    if (module.unloaded) {
      // A launch that raced mgpuModuleUnload: nothing is loaded again.
      return KILN_ERROR(InvalidArgument, "kernel '" + kernel->name +
                                             "': its module was unloaded");
    } else if (it != module.handles.end()) {
      loaded = it->second;
    } else {
      // The module's first use on this device: load it from its blob.
      Expected<void *> made =
          module.jit
              ? device->loadModuleJIT(module.blob.data(), module.optLevel)
              : device->loadModule(module.blob.data(), module.blob.size());
      if (!made)
        return made.error();
      loaded = *made;
      module.handles[index] = loaded;
    }
  }
  KILN_ASSIGN_OR_RETURN(void *function,
                        device->getFunction(loaded, kernel->name.c_str()));
  std::lock_guard<std::mutex> lock(kernel->mutex);
  kernel->functions[index] = function;
  return function;
}

Expected<void *> DeviceList::getFunction(void *handle, const char *name) {
  std::shared_ptr<Module> module = findModule(handle);
  if (!module || !name) {
    // Not a module of the list (or no name): the current device answers,
    // about its own handle of the module where it has one.
    KILN_ASSIGN_OR_RETURN(Runtime * device, current());
    if (module) {
      std::lock_guard<std::mutex> lock(module->mutex);
      auto it = module->handles.find(currentIndex());
      if (it != module->handles.end())
        handle = it->second;
    }
    return device->getFunction(handle, name);
  }
  std::shared_ptr<Kernel> kernel;
  {
    std::lock_guard<std::mutex> lock(module->mutex);
    std::shared_ptr<Kernel> &known = module->kernels[name];
    if (!known) {
      known = std::make_shared<Kernel>();
      known->module = module;
      known->name = name;
    }
    kernel = known;
  }
  // Looked up on the current device now, so that a wrong name is an error
  // here and not at a launch.
  if (Expected<void *> function = functionOn(kernel, currentIndex());
      !function) {
    std::lock_guard<std::mutex> lock(module->mutex);
    // Another thread may be looking the kernel up on another device.
    std::lock_guard<std::mutex> kernelLock(kernel->mutex);
    if (kernel->functions.empty())
      module->kernels.erase(name);
    return function.error();
  }
  std::unique_lock<std::shared_mutex> lock(mutex);
  if (!modules.count(handle))
    return KILN_ERROR(InvalidArgument,
                      std::string("mgpuModuleGetFunction('") + name +
                          "'): its module was unloaded meanwhile");
  kernels[kernel.get()] = kernel;
  return static_cast<void *>(kernel.get());
}

Status DeviceList::launch(void *function, Dim3 grid, Dim3 block,
                          int32_t sharedMemoryBytes, void *stream,
                          void **params, size_t paramsCount) {
  return launchFull(function, grid, block, nullptr, sharedMemoryBytes, stream,
                    params, paramsCount, nullptr);
}

Status DeviceList::launchFull(void *function, Dim3 grid, Dim3 block,
                              const Dim3 *cluster, int32_t sharedMemoryBytes,
                              void *stream, void **params, size_t paramsCount,
                              void **extra) {
  std::shared_ptr<Kernel> kernel = findKernel(function);
  int index = streamDevice(stream);
  if (!kernel || index < 0) {
    // A handle the list did not make: the current device refuses it (or,
    // for a kernel it made itself, runs it) as it would alone.
    KILN_ASSIGN_OR_RETURN(Runtime * device, current());
    void *own = function;
    if (kernel) {
      KILN_ASSIGN_OR_RETURN(own, functionOn(kernel, currentIndex()));
    }
    return device->launchFull(own, grid, block, cluster, sharedMemoryBytes,
                              stream, params, paramsCount, extra);
  }
  // The launch runs on its stream's device.
  KILN_ASSIGN_OR_RETURN(void *own, functionOn(kernel, index));
  KILN_ASSIGN_OR_RETURN(Runtime * device, this->device(index));
  return device->launchFull(own, grid, block, cluster, sharedMemoryBytes,
                            stream, params, paramsCount, extra);
}

//===-- Streams and events ------------------------------------------------===//

Expected<void *> DeviceList::createStream() {
  KILN_ASSIGN_OR_RETURN(Runtime * device, current());
  KILN_ASSIGN_OR_RETURN(void *stream, device->createStream());
  std::unique_lock<std::shared_mutex> lock(mutex);
  streams[stream] = currentIndex();
  return stream;
}

Status DeviceList::destroyStream(void *stream) {
  int index = stream ? streamDevice(stream) : -1;
  KILN_ASSIGN_OR_RETURN(Runtime * device,
                        index < 0 ? current() : this->device(index));
  KILN_TRY(device->destroyStream(stream));
  std::unique_lock<std::shared_mutex> lock(mutex);
  streams.erase(stream);
  return Status::success();
}

Status DeviceList::synchronize(void *stream) {
  int index = streamDevice(stream);
  KILN_ASSIGN_OR_RETURN(Runtime * device,
                        index < 0 ? current() : this->device(index));
  return device->synchronize(stream);
}

Expected<void *> DeviceList::createEvent() {
  KILN_ASSIGN_OR_RETURN(Runtime * device, current());
  KILN_ASSIGN_OR_RETURN(void *made, device->createEvent());
  auto event = std::make_shared<Event>();
  event->created = currentIndex();
  event->handles[event->created] = made;
  std::unique_lock<std::shared_mutex> lock(mutex);
  events[event.get()] = event;
  return static_cast<void *>(event.get());
}

Status DeviceList::destroyEvent(void *handle) {
  std::shared_ptr<Event> event;
  {
    std::unique_lock<std::shared_mutex> lock(mutex);
    if ((event = lookup(events, handle)))
      events.erase(handle);
  }
  if (!event) {
    KILN_ASSIGN_OR_RETURN(Runtime * device, current());
    return device->destroyEvent(handle);
  }
  std::lock_guard<std::mutex> lock(event->mutex);
  return onEachDevice(event->handles, &Runtime::destroyEvent);
}

Status DeviceList::recordEvent(void *handle, void *stream) {
  std::shared_ptr<Event> event = findEvent(handle);
  int index = streamDevice(stream);
  if (!event || index < 0) {
    KILN_ASSIGN_OR_RETURN(Runtime * device, current());
    void *own = handle;
    if (event) {
      std::lock_guard<std::mutex> lock(event->mutex);
      own = event->handleFor(currentIndex());
    }
    return device->recordEvent(own, stream);
  }
  // Recorded by a stream of another device than the one it was made on:
  // the event gets a handle there too, and waits go to where it was
  // recorded last.
  KILN_ASSIGN_OR_RETURN(Runtime * device, this->device(index));
  std::lock_guard<std::mutex> lock(event->mutex);
  void *&own = event->handles[index];
  if (!own) {
    Expected<void *> made = device->createEvent();
    if (!made) {
      event->handles.erase(index);
      return made.error();
    }
    own = *made;
  }
  KILN_TRY(device->recordEvent(own, stream));
  event->last = index;
  return Status::success();
}

Status DeviceList::synchronizeEvent(void *handle) {
  std::shared_ptr<Event> event = findEvent(handle);
  if (!event) {
    KILN_ASSIGN_OR_RETURN(Runtime * device, current());
    return device->synchronizeEvent(handle);
  }
  std::pair<int, void *> at;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    at = event->waitedOn();
  }
  KILN_ASSIGN_OR_RETURN(Runtime * device, this->device(at.first));
  return device->synchronizeEvent(at.second);
}

Status DeviceList::streamWaitEvent(void *stream, void *handle) {
  std::shared_ptr<Event> event = findEvent(handle);
  int index = streamDevice(stream);
  if (!event || index < 0) {
    KILN_ASSIGN_OR_RETURN(Runtime * device, current());
    void *own = handle;
    if (event) {
      std::lock_guard<std::mutex> lock(event->mutex);
      own = event->handleFor(currentIndex());
    }
    return device->streamWaitEvent(stream, own);
  }
  std::pair<int, void *> at;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    at = event->waitedOn();
  }
  KILN_ASSIGN_OR_RETURN(Runtime * device, this->device(at.first));
  if (at.first == index)
    return device->streamWaitEvent(stream, at.second);
  // A stream waiting for another device's work: the host waits for it, so
  // everything later on the stream comes after it.
  return device->synchronizeEvent(at.second);
}

} // namespace rt
} // namespace kiln
