def binary_search(nums: list[int], target: int) -> int:
    """Looks right, passes the docstring example, and returns *an* index, not the first one."""
    lo, hi = 0, len(nums) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if nums[mid] == target:
            return mid
        if nums[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1
