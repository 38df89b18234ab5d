# roofline-cuda device: offline models, the GPU list, name errors and the no-GPU path.
roofkit_cli_test(NAME device.list COMMAND roofline-cuda device --list
                 STDOUT "Known GPUs.*H100 SXM.*NVIDIA H100 80GB HBM3.*B200")
roofkit_cli_test(NAME device.list_json COMMAND roofline-cuda device --list --json
                 STDOUT "\"name\": \"RTX 3090\"")
roofkit_cli_test(NAME device.gpu_markdown COMMAND roofline-cuda device --gpu h100-sxm
                 STDOUT "Device: H100 SXM.*\\| sm_count +\\| SMs +\\| +132 \\|.*Theoretical ceilings.*\\| fp32 +\\| FP32 +\\| +66\\.91 \\| TFLOP/s +\\| +66\\.90 \\|.*\\| dram +\\| DRAM +\\| +3352\\.32 \\| GB/s")
roofkit_cli_test(NAME device.gpu_alias_json COMMAND roofline-cuda device --gpu "NVIDIA H100 80GB HBM3" --json
                 STDOUT "\"ceilings\": \\[.*\"key\": \"tensor_fp16\".*\"sm_clock_mhz\": 1830\\.0.*\"device\": \\[")
roofkit_cli_test(NAME device.gpu_prefix_csv COMMAND roofline-cuda device --gpu h200 --csv
                 STDOUT "key,property,value,unit,note\nname,Name,H200 SXM,,.*\nkey,roof,value,unit,datasheet,vs_datasheet_pct,sm_clock_mhz,mem_clock_mhz,method\n")
roofkit_cli_test(NAME device.unknown_gpu COMMAND roofline-cuda device --gpu MI300X
                 EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
                 STDERR "unknown GPU 'MI300X' \\(valid: H100 SXM, H100 PCIe, .*B200\\)")
roofkit_cli_test(NAME device.ambiguous_gpu COMMAND roofline-cuda device --gpu h100
                 EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
                 STDERR "GPU name 'h100' is ambiguous \\(candidates: H100 SXM, H100 PCIe\\)")
roofkit_cli_test(NAME device.gpu_and_device COMMAND roofline-cuda device --gpu t4 --device 0
                 EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "excludes")
roofkit_cli_test(NAME device.json_and_csv COMMAND roofline-cuda device --gpu t4 --json --csv
                 EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1)

# No GPU: hide every device (an empty CUDA_VISIBLE_DEVICES) so the test holds on GPU machines too.
if(ROOFKIT_BUILD_TOOLS)
  string(ASCII 31 device_sep)
  string(REPLACE ";" "${device_sep}" no_gpu_args "-E;env;CUDA_VISIBLE_DEVICES=;$<TARGET_FILE:roofline-cuda>;device")
  add_test(NAME cli.device.no_gpu
    COMMAND ${CMAKE_COMMAND} "-DTOOL=${CMAKE_COMMAND}" "-DARGS=${no_gpu_args}" -DEXIT_CODE=3
            "-DSTDERR_REGEX=no GPU found and no --gpu NAME given \\(known GPUs: H100 SXM, .*T4, B200\\)"
            -DSTDOUT_EMPTY=TRUE -DSTDERR_LINES=1 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/run_cli.cmake
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(cli.device.no_gpu PROPERTIES LABELS "cpu;cli")
  string(REPLACE ";" "${device_sep}" no_gpu_dev_args "-E;env;CUDA_VISIBLE_DEVICES=;$<TARGET_FILE:roofline-cuda>;device;--device;0")
  add_test(NAME cli.device.no_gpu_device
    COMMAND ${CMAKE_COMMAND} "-DTOOL=${CMAKE_COMMAND}" "-DARGS=${no_gpu_dev_args}" -DEXIT_CODE=3
            "-DSTDERR_REGEX=no CUDA GPU found.*hint: use --gpu NAME" -DSTDOUT_EMPTY=TRUE -DSTDERR_LINES=2
            -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/run_cli.cmake
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(cli.device.no_gpu_device PROPERTIES LABELS "cpu;cli")
endif()

# Unconfirmed datasheet values (data/gpus.json "unconfirmed") are marked where they are shown:
# the roof built on them (method) and a note under the table.
roofkit_cli_test(NAME device.unconfirmed_values_marked_csv COMMAND roofline-cuda device --gpu h200
  --csv STDOUT "\ntensor_tf32,[^\n]*\\[unconfirmed in data/gpus.json: tensor_tf32, tensor_clock_mhz\\]")
roofkit_cli_test(NAME device.unconfirmed_values_marked_note COMMAND roofline-cuda device --gpu h200
  STDOUT "UNCONFIRMED datasheet values of the H200 SXM \\(a secondary source, a product name only, or an inference; data/gpus.json\\): tensor_clock_mhz, l2_bytes, memory_clock_mhz, tensor_tf32")

# Memory sizes name their unit: the vendor's decimal GB with GiB beside it (issue 38: an 80 GB
# card shown as "74.5 GiB" without a word).
roofkit_cli_test(NAME device.memory_in_gb_and_gib COMMAND roofline-cuda device --gpu h100-sxm
  STDOUT "[|] global_memory_bytes +[|] Device memory +[|] +80000000000 [|] bytes +[|] 80[.]0 GB [(]74[.]5 GiB[)]")
