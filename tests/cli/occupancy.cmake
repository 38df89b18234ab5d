# Command-line tests of occupancy-calc: happy paths (golden / regex checks of the table, JSON and
# CSV outputs) and every bad input of issue 3 (one line on stderr, exit 2, nothing on stdout).
# Literal '|' and '*' are written [|] and [*]; ';' is avoided (it splits CMake lists).

set(occ_data ${PROJECT_SOURCE_DIR}/tests/data/ptxas)
set(occ_dir ${CMAKE_CURRENT_BINARY_DIR}/occupancy_cli)
file(MAKE_DIRECTORY ${occ_dir})
file(WRITE ${occ_dir}/good.csv
"arch,threads,regs,smem_static,smem_dynamic,carveout
sm_80,512,33,0,0,-1
9.0,128,32,0,20K,25
sm_90,800,80,0,0,-1
")
file(WRITE ${occ_dir}/bad_row.csv
"arch,threads,regs,smem_static,smem_dynamic,carveout
sm_80,512,33,0,0,-1
sm_99,256,32,0,0,-1
sm_90,256,32,0,0,-1
")
file(WRITE ${occ_dir}/bad_header.csv "arch,threads,registers\nsm_90,256,32\n")

# --- Default report: Markdown, JSON, CSV ------------------------------------------------------
roofkit_cli_test(NAME occupancy.report_markdown
  COMMAND occupancy-calc --arch sm_80 --threads 512 --regs 33 --detail
  STDOUT "Active blocks per SM +[|] 3 +[|].*[*][*]Limited by[*][*] +[|] [*][*]registers[*][*].*[|] [*][*]registers[*][*] +[|] [*][*]20480[*][*] [|]"
  STDERR_LINES 0)
roofkit_cli_test(NAME occupancy.report_json
  COMMAND occupancy-calc --arch 9.0 -t 256 -r 48 --json
  STDOUT "\"limits\": .*\"block_limit\": 5,.*\"limiting\": true,.*\"resource\": \"registers\".*\"occupancy\": [{].*\"active_blocks_per_sm\": 5,.*\"active_warps_per_sm\": 40,.*\"limiters\": \"registers\",.*\"occupancy\": 0.625,")
roofkit_cli_test(NAME occupancy.report_csv
  COMMAND occupancy-calc --arch sm_90 -t 256 -r 48 --csv
  STDOUT "active_blocks_per_sm,active_warps_per_sm,max_warps_per_sm,occupancy,limiters,warps_per_block,allocated_registers_per_block,allocated_smem_per_block,smem_per_sm,optin_assumed,reason\n5,40,64,0.625,registers,8,12288,1024,233472,false,\n")
roofkit_cli_test(NAME occupancy.report_ties
  COMMAND occupancy-calc --arch sm_90 -t 256 -r 32 --csv
  STDOUT "\n8,64,64,1,\"warps, registers\",")
roofkit_cli_test(NAME occupancy.gpu_by_name
  COMMAND occupancy-calc --gpu "h100 sxm" -t 256 -r 32 --detail
  STDOUT "GPU +[|] H100 SXM.*SMs +[|] 132")
roofkit_cli_test(NAME occupancy.optin_assumed
  COMMAND occupancy-calc --arch sm_90 -t 256 -r 32 --smem-static 4K -s 96K --detail
  STDOUT "Opt-in shared-memory limit assumed +[|] true.*opt-in limit [(]232448 B[)] is assumed set")
roofkit_cli_test(NAME occupancy.zero_blocks_reason
  COMMAND occupancy-calc --arch sm_90 -t 800 -r 80
  STDOUT "No block fits: 80 registers per thread .* rounds the warps up to 28 [(]a multiple of 4 sub-partitions[)]: 71680 > 65536")
roofkit_cli_test(NAME occupancy.carveout
  COMMAND occupancy-calc --arch sm_90 -t 128 -r 32 -s 20K --carveout 25% --json
  STDOUT "\"active_blocks_per_sm\": 3,.*\"smem_per_sm\": 65536")
roofkit_cli_test(NAME occupancy.help_is_the_doc
  COMMAND occupancy-calc --help
  STDOUT "Usage: occupancy-calc.*--smem-dynamic.*# occupancy-calc.*## Exit codes")

# --- The answer first; one CSV table; JSON objects with a schema ------------------------------
roofkit_cli_test(NAME occupancy.answer_first
  COMMAND occupancy-calc --arch sm_80 --threads 512 --regs 33
  STDOUT "^Occupancy 75.0% on sm_80 [(]Ampere, CC 8.0[)]: 48 of 64 warps per SM, 3 blocks of 512 threads.\nLimited by: registers.\nNearest cliffs:\n  -1 register [(]32/thread[)]: 75% -> 100%\n      measure: roofline-cuda cliff --kernel NAME --sweep regs --range 31:34:1\n  [+]8 registers [(]41/thread[)]: 75% -> 50%\n      measure: roofline-cuda cliff --kernel NAME --sweep regs --range 32:42:1\n.*Tables [(]target, launch, occupancy, limits[)]: --detail"
  STDERR_LINES 0)
roofkit_cli_test(NAME occupancy.json_schema_and_objects
  COMMAND occupancy-calc --arch sm_90 -t 256 -r 48 --json
  STDOUT "^{\n  \"launch\": {\n.*\"occupancy\": {\n    \"active_blocks_per_sm\": 5,.*\"schema\": \"roofkit.occupancy/2\",\n  \"target\": {\n")
roofkit_cli_test(NAME occupancy.csv_is_one_table
  COMMAND occupancy-calc --arch sm_90 -t 256 -r 48 --csv
  STDOUT "^active_blocks_per_sm,[^\n]*\n5,40,64,0.625,registers,[^\n]*\n$")
roofkit_cli_test(NAME occupancy.csv_table_choice
  COMMAND occupancy-calc --arch sm_90 -t 256 -r 48 --csv --table limits
  STDOUT "^resource,used_per_block,available_per_sm,unit,block_limit,limiting,detail\nwarps,")
roofkit_cli_test(NAME occupancy.bad_table_unknown
  COMMAND occupancy-calc --arch sm_90 --csv --table nope
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "--table: no table 'nope' in this output [(]valid: target, launch, occupancy, limits[)]")
roofkit_cli_test(NAME occupancy.ptxas_arch_mismatch_warns
  COMMAND occupancy-calc --arch sm_90 --ptxas ${occ_data}/kernels_sm80_sm90.log -t 256
  STDERR "^occupancy-calc: warning: the ptxas log compiled [0-9]+ of [0-9]+ kernels for sm_80, but the numbers are for sm_90 [(]--arch sm_90[)]"
  STDERR_LINES 1)
roofkit_cli_test(NAME occupancy.ptxas_answer_first
  COMMAND occupancy-calc --ptxas ${occ_data}/kernels_sm80_sm90.log -t 256
  STDOUT "void transpose<100>[(]float const[*], float[*], int[)]\nOccupancy 62.5% on sm_90 .*measure: roofline-cuda cliff --kernel 'transpose<100>' --sweep smem --range "
  STDERR_LINES 0)

# --- cliffs, suggest, sweep --------------------------------------------------------------------
roofkit_cli_test(NAME occupancy.cliffs
  COMMAND occupancy-calc --arch sm_80 -t 512 -r 33 cliffs --detail
  STDOUT "33 registers: 3 blocks, 75%. at 32 or fewer: 4 blocks, 100%. 7 more registers before the next drop [(]at 41: 2 blocks, 50%[)]")
roofkit_cli_test(NAME occupancy.cliffs_csv
  COMMAND occupancy-calc --arch sm_80 -t 512 -r 33 cliffs --csv
  STDOUT "^variable,value,active_blocks,occupancy,below,below_blocks,below_occupancy,above,above_blocks,above_occupancy,headroom,text\nregisters,33,3,0.75,32,4,1,41,2,0.5,7,")
roofkit_cli_test(NAME occupancy.suggest_block_size
  COMMAND occupancy-calc --gpu "H100 SXM" -t 256 -r 72 suggest --json
  STDOUT "\"block_size\": [{][^}]*\"block_size\": 896,.*\"min_grid_size\": 132")
roofkit_cli_test(NAME occupancy.suggest_registers
  COMMAND occupancy-calc --arch sm_90 -t 256 -r 64 suggest --target-occupancy 100%
  STDOUT "__launch_bounds__[(]256, 8[)].*-maxrregcount=32")
roofkit_cli_test(NAME occupancy.suggest_smem_for_blocks
  COMMAND occupancy-calc --arch sm_90 -t 256 -r 32 --smem-static 256 suggest --blocks 2 --csv --table smem_for_blocks
  STDOUT "blocks,max_dynamic_smem,occupancy,runtime_reported,runtime_overreports\n2,115456,0.25,116480,true\n")
roofkit_cli_test(NAME occupancy.suggest_clusters
  COMMAND occupancy-calc --arch sm_90 --sms 132 -t 1024 -r 32 suggest
  STDOUT "Active clusters [(]upper bound[)].*[|] +8 [|] true +[|] +33 [|].*[|] +16 [|] false +[|] +16 [|]")
roofkit_cli_test(NAME occupancy.sweep_terminal
  COMMAND occupancy-calc --arch sm_90 -t 256 -r 48 sweep
  STDOUT "Active warps per SM vs block size.*@.*\\^ current: 256 threads: 5 blocks, 40 warps, 62.5%.*vs registers per thread.*vs shared memory per block")
roofkit_cli_test(NAME occupancy.sweep_json
  COMMAND occupancy-calc --arch sm_90 -t 256 -r 48 sweep --json
  STDOUT "\"sweep_block_size\": .*\"sweep_registers\": .*\"sweep_shared_memory\": ")
add_test(NAME cli.occupancy.sweep_svg
  COMMAND sh -c "'$<TARGET_FILE:occupancy-calc>' --arch sm_90 -t 256 -r 48 sweep -o '${occ_dir}/sweep.svg' > /dev/null && grep -c '<polyline' '${occ_dir}/sweep.svg' && grep -c 'current launch:' '${occ_dir}/sweep.svg'")
set_tests_properties(cli.occupancy.sweep_svg PROPERTIES LABELS "cpu;cli"
                     PASS_REGULAR_EXPRESSION "^3\n3\n$")

# --- ptxas logs (real nvcc 13.0 output) ---------------------------------------------------------
roofkit_cli_test(NAME occupancy.ptxas_file
  COMMAND occupancy-calc --ptxas ${occ_data}/kernels_sm80_sm90.log --threads 256 --detail
  STDOUT "void transpose<100>[(]float const[*], float[*], int[)] +[|] sm_90 +[|] +14 [|] +40400 [|] +1 [|] +0 [|] +5 [|] +40 [|] +0.625 [|] shared_memory")
roofkit_cli_test(NAME occupancy.ptxas_stdin_json
  COMMAND occupancy-calc --ptxas - -t 128 --json
  STDIN ${occ_data}/kernels_sm80_sm90.log
  STDOUT "\"active_blocks_per_sm\": 16,.*\"arch\": \"sm_90\",.*\"barriers\": 3,.*\"kernel\": \"named_barriers[(]int[*][)]\"")
roofkit_cli_test(NAME occupancy.ptxas_arch_override
  COMMAND occupancy-calc --arch sm_86 --ptxas ${occ_data}/kernels_sm80_sm90.log --csv
  STDOUT "^kernel,arch,regs.*\n\"spilling[(]double const[*], double[*][)]\",sm_86,32,0,0,12704,6,48,1,warps,")

# --- batch --------------------------------------------------------------------------------------
roofkit_cli_test(NAME occupancy.batch
  COMMAND occupancy-calc batch ${occ_dir}/good.csv
  STDOUT "^{\"line\":2,\"arch\":\"sm_80\",\"threads\":512,\"regs\":33,\"smem_static\":0,\"smem_dynamic\":0,\"carveout\":-1,\"active_blocks_per_sm\":3,\"active_warps_per_sm\":48,\"occupancy\":0.75,\"limiters\":[[]\"registers\"[]]}\n{\"line\":3,.*\"active_blocks_per_sm\":3,.*\n{\"line\":4,.*\"active_blocks_per_sm\":0,.*\"reason\":.*}\n$"
  STDERR_LINES 0)
roofkit_cli_test(NAME occupancy.batch_stdin
  COMMAND occupancy-calc batch -
  STDIN ${occ_dir}/good.csv
  STDOUT "\"line\":4,")
roofkit_cli_test(NAME occupancy.batch_bad_row
  COMMAND occupancy-calc batch ${occ_dir}/bad_row.csv
  EXIT_CODE 2
  STDOUT "^{\"line\":2,[^\n]*\"active_blocks_per_sm\":3,[^\n]*}\n{\"line\":3,\"error\":\"unknown architecture 'sm_99' [^\n]*\"}\n{\"line\":4,[^\n]*\"active_blocks_per_sm\":8,"
  STDERR "1 of 3 rows invalid [(]first: line 3: unknown architecture 'sm_99'"
  STDERR_LINES 1)

# --- bad input: one line, exit 2, nothing on stdout ---------------------------------------------
function(occupancy_bad name stderr_regex)
  roofkit_cli_test(NAME occupancy.bad_${name} COMMAND occupancy-calc ${ARGN}
                   EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "${stderr_regex}")
endfunction()
occupancy_bad(threads_zero "threads per block '0' out of range [(]valid: 1..1024 on sm_90[)]"
              --arch sm_90 --threads 0)
occupancy_bad(threads_above_max "threads per block '1025' out of range [(]valid: 1..1024 on sm_75[)]"
              --arch sm_75 --threads 1025)
occupancy_bad(regs_above_255 "registers per thread '256' out of range [(]valid: 0..255[)]"
              --arch sm_90 --regs 256)
occupancy_bad(smem_above_optin "shared memory per block '233472' .* out of range [(]valid: 0..232448 bytes, the opt-in maximum of sm_90[)]"
              --arch sm_90 --smem-dynamic 228K)
occupancy_bad(smem_above_optin_pascal "shared memory per block '49153' .*[(]valid: 0..49152 bytes"
              --arch sm_61 --smem-static 48K --smem-dynamic 1)
occupancy_bad(smem_bad_suffix "--smem-dynamic '12Q' is not a size [(]valid: bytes, or a number with K or M"
              --arch sm_90 -s 12Q)
occupancy_bad(unknown_arch "unknown architecture 'sm_99' [(]valid: sm_50, sm_52, .*sm_121"
              --arch sm_99)
occupancy_bad(unknown_gpu "unknown GPU 'Quadro 9000' [(]valid: .*H100 SXM"
              --gpu "Quadro 9000")
occupancy_bad(ambiguous_gpu "GPU name 'H100' is ambiguous [(]candidates: H100 SXM, H100 PCIe[)]"
              --gpu H100)
occupancy_bad(carveout "carveout '101' out of range [(]valid: -1 or default, 0..100"
              --arch sm_90 --carveout 101)
occupancy_bad(barriers "barriers '17' out of range [(]valid: 0..16[)]"
              --arch sm_90 --barriers 17)
occupancy_bad(no_target "no target GPU [(]valid: --arch sm_XY or X.Y, --gpu NAME, or --device N[)]"
              --threads 256)
occupancy_bad(two_targets "--arch excludes --gpu" --arch sm_90 --gpu "H100 SXM")
occupancy_bad(csv_header "batch header 'arch,threads,registers' is not valid [(]valid: arch,threads,regs,smem_static,smem_dynamic,carveout[)]"
              batch ${occ_dir}/bad_header.csv)
occupancy_bad(csv_missing "cannot read '.*missing.csv': file missing or unreadable"
              batch ${occ_dir}/missing.csv)
occupancy_bad(ptxas_missing "cannot read '.*missing.log': file missing or unreadable"
              --ptxas ${occ_dir}/missing.log)
occupancy_bad(ptxas_garbage "no kernel found in ptxas log '.*garbage.log' [(]valid: the output of nvcc -Xptxas -v"
              --ptxas ${occ_data}/garbage.log)
occupancy_bad(ptxas_with_sweep "--ptxas reports occupancy and cliffs of every kernel"
              --ptxas ${occ_data}/kernels_sm80_sm90.log sweep)
occupancy_bad(target_occupancy "target occupancy '150%' out of range"
              --arch sm_90 suggest --target-occupancy 150%)

# --- --device without a GPU: exit 3 (CUDA_VISIBLE_DEVICES hides any GPU of the machine) --------
roofkit_cli_test(NAME occupancy.device_without_gpu
  COMMAND occupancy-calc --device 0 EXIT_CODE 3 STDOUT_EMPTY
  STDERR "no CUDA GPU found")
set_tests_properties(cli.occupancy.device_without_gpu PROPERTIES ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
# The sweep charts are drawn on the shared canvas: every chart format, each really that format.
add_test(NAME cli.occupancy.sweep_html
  COMMAND sh -c "'$<TARGET_FILE:occupancy-calc>' --arch sm_90 -t 256 -r 48 sweep -o '${occ_dir}/sweep.html' > /dev/null && head -c 15 '${occ_dir}/sweep.html' && grep -c 'current launch:' '${occ_dir}/sweep.html'")
set_tests_properties(cli.occupancy.sweep_html PROPERTIES LABELS "cpu;cli"
                     PASS_REGULAR_EXPRESSION "^<!DOCTYPE html>3\n$")
if(ROOFKIT_CAIRO_FOUND)
  add_test(NAME cli.occupancy.sweep_png
    COMMAND sh -c "'$<TARGET_FILE:occupancy-calc>' --arch sm_90 -t 256 -r 48 sweep -o '${occ_dir}/sweep.png' > /dev/null && od -An -c -N4 '${occ_dir}/sweep.png' | tr -d ' '")
  set_tests_properties(cli.occupancy.sweep_png PROPERTIES LABELS "cpu;cli"
                       PASS_REGULAR_EXPRESSION "^211PNG\n$")
endif()
roofkit_cli_test(NAME occupancy.sweep_bad_extension
  COMMAND occupancy-calc --arch sm_90 sweep -o ${occ_dir}/sweep.jpg
  EXIT_CODE 2 STDERR_LINES 1 STDERR "sweep.jpg' from its extension \\(valid: .svg, .html, .png, .pdf\\)")
